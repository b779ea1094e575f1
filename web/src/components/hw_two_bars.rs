//! The bars of the two-high-watermarks figure: one column per replica, its height its end
//! offset, the high watermark's line across the columns it is computed from, and columns
//! drawn apart (replicas out of the ISR) after a gap and a dashed divider. Sizes are pixels:
//! the figure is drawn at its own size, never scaled down below the room's 16 px text.

use yew::prelude::*;

/// The width of one half of the figure (px).
pub const HALF_W: f64 = 240.0;
/// The height of one half (px).
pub const HALF_H: f64 = 184.0;
/// Room above the tallest bar for its value.
const TOP: f64 = 26.0;
/// The tallest bar.
const PLOT_H: f64 = 88.0;
/// Where the bars stand.
const BASE: f64 = TOP + PLOT_H;
/// Room right of the bars for the line's `HW`.
const RIGHT: f64 = 34.0;
/// The gap before the columns drawn apart.
const GAP: f64 = 26.0;
/// The widest column.
const MAX_COL: f64 = 66.0;

/// One column of the figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Node id (the text under it).
    pub id: i32,
    /// Its end offset, if known.
    pub end: Option<i64>,
    /// A second line under it (a replica's own `hw N`), if any.
    pub note: Option<String>,
    /// Its CSS classes (`picked`, `leader`, `apart`, `down`).
    pub class: Vec<&'static str>,
    /// Whether it is drawn apart (out of the ISR).
    pub apart: bool,
}

/// A half of the figure: its bars, its high watermark's line, what is drawn apart.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// The bars, in order (those apart last).
    pub bars: Vec<Bar>,
    /// The line's offset (the majority's end offset, or the ISR's smallest LEO).
    pub line: Option<i64>,
    /// The line's class (`majority-line` solid, `isr-line` dashed).
    pub line_class: &'static str,
    /// The label of the columns apart.
    pub apart_label: &'static str,
    /// The SVG's id.
    pub id: &'static str,
    /// Its accessible name.
    pub aria: String,
}

/// The column width and each bar's left edge.
fn columns(bars: &[Bar]) -> (f64, Vec<f64>) {
    let apart = bars.iter().any(|b| b.apart);
    let room = HALF_W - RIGHT - if apart { GAP } else { 0.0 };
    let col = (room / bars.len().max(1) as f64).min(MAX_COL);
    let mut x = 0.0;
    let mut lefts = Vec::with_capacity(bars.len());
    for (i, b) in bars.iter().enumerate() {
        if b.apart && (i == 0 || !bars[i - 1].apart) && i > 0 {
            x += GAP;
        }
        lefts.push(x);
        x += col;
    }
    (col, lefts)
}

/// The bar heights' scale: offsets from `lo` to `hi` drawn from 35 % to all of the plot (the
/// numbers on the bars say the values; the heights only order them).
fn height(v: i64, lo: i64, hi: i64) -> f64 {
    if hi <= lo {
        return PLOT_H * 0.7;
    }
    PLOT_H * (0.35 + 0.65 * (v - lo) as f64 / (hi - lo) as f64)
}

/// `v` with one decimal, as the SVG gets it.
fn f(v: f64) -> String {
    format!("{v:.1}")
}

/// The half drawn: bars, values, ids, notes, the line and the divider.
pub fn draw_chart(c: &Chart) -> Html {
    let known: Vec<i64> = c.bars.iter().filter_map(|b| b.end).chain(c.line).collect();
    let (lo, hi) = (
        known.iter().copied().min().unwrap_or(0),
        known.iter().copied().max().unwrap_or(0),
    );
    let (col, lefts) = columns(&c.bars);
    let first_apart = c.bars.iter().position(|b| b.apart);
    let line_end = first_apart.map_or(lefts.last().map_or(0.0, |l| l + col), |i| {
        lefts[i] - GAP / 2.0
    });
    html! {
        <svg id={c.id} class="hw-two-chart" width={f(HALF_W)} height={f(HALF_H)}
             viewBox={format!("0 0 {HALF_W} {HALF_H}")} role="img" aria-label={c.aria.clone()}>
            <title>{ c.aria.clone() }</title>
            <line class="hw-two-base" x1="0" y1={f(BASE)} x2={f(HALF_W - RIGHT)} y2={f(BASE)} />
            { for c.bars.iter().zip(&lefts).map(|(b, &x)| {
                let h = b.end.map_or(8.0, |e| height(e, lo, hi));
                let cx = x + col / 2.0;
                html! {
                    <g class={classes!("hw-two-bar", b.class.clone())} data-node-id={b.id.to_string()}
                       data-end-offset={b.end.map(|e| e.to_string()).unwrap_or_default()}
                       data-apart={b.apart.then_some("true")}>
                        <rect x={f(x + 6.0)} y={f(BASE - h)} width={f(col - 12.0)} height={f(h)} rx="3" />
                        <text class="value" x={f(cx)} y={f(BASE - h - 7.0)} text-anchor="middle">
                            { b.end.map_or("?".to_string(), |e| e.to_string()) }</text>
                        <text class="id" x={f(cx)} y={f(BASE + 20.0)} text-anchor="middle">{ b.id }</text>
                        if let Some(note) = &b.note {
                            <text class="note" x={f(cx)} y={f(BASE + 40.0)} text-anchor="middle">{ note.clone() }</text>
                        }
                    </g>
                }
            }) }
            if let Some(i) = first_apart {
                <line class="hw-two-divider" x1={f(lefts[i] - GAP / 2.0)} y1={f(TOP - 10.0)}
                      x2={f(lefts[i] - GAP / 2.0)} y2={f(BASE + 44.0)} />
                <text class="apart-label" x={f((lefts[i] + HALF_W - RIGHT) / 2.0 - GAP / 4.0)} y={f(BASE + 60.0)}
                      text-anchor="middle">{ format!("✕ {}", c.apart_label) }</text>
            }
            if let Some(v) = c.line {
                <g class={classes!("hw-two-line", c.line_class)} data-offset={v.to_string()}>
                    <line x1="0" y1={f(BASE - height(v, lo, hi))} x2={f(line_end)} y2={f(BASE - height(v, lo, hi))} />
                    <text x={f(HALF_W - 2.0)} y={f(BASE - height(v, lo, hi) + 6.0)} text-anchor="end">{"HW"}</text>
                </g>
            }
        </svg>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(id: i32, apart: bool) -> Bar {
        Bar {
            id,
            end: Some(1),
            note: None,
            class: Vec::new(),
            apart,
        }
    }

    #[test]
    fn columns_fit_the_half_and_those_apart_come_after_a_gap() {
        let bars = [bar(1, false), bar(2, false), bar(3, true)];
        let (col, lefts) = columns(&bars);
        assert!(lefts[2] + col <= HALF_W - RIGHT + 0.01);
        assert!((lefts[2] - lefts[1] - col - GAP).abs() < 0.01);
        let (col, _) = columns(&[bar(1, false)]);
        assert_eq!(col, MAX_COL);
    }

    #[test]
    fn heights_order_the_offsets() {
        assert!(height(5, 3, 5) > height(4, 3, 5));
        assert!(height(3, 3, 5) > 0.0);
        assert_eq!(height(7, 7, 7), PLOT_H * 0.7);
    }
}
