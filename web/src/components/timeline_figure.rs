//! The TimelineHashMap timeline, drawn as the article draws example 3: an offset axis with the
//! snapshots as columns (and now), a row per key with its value as of each snapshot; committed
//! columns green, applied but not committed yellow, the columns deleteSnapshotsUpTo removed
//! struck through in blue and those revertToSnapshot dropped struck in red, each with its call;
//! a dot where a tier saved an old value, ↺ on a value a revert brought back; what the last
//! `timeline` command did lit. Under it the lines `timeline print` / `get` printed, as they
//! accumulate (`#timeline-lines`).

use kraft_core::view::timeline::{ColumnState, FigureColumn};
use kraft_core::view::TimelineView;
use yew::prelude::*;

use crate::i18n::{use_lang, TimelineText};

/// The most snapshot columns drawn on a panel of its own (live ones first, then the newest
/// struck ones; the legend counts the others); inside the controller panel one fewer.
pub const MAX_COLUMNS: usize = 4;
/// The most rows drawn (the first keys; a last row counts the others).
pub const MAX_ROWS: usize = 8;
/// Text size in the figure's units (a unit is a CSS pixel at the default 20 px text).
const FONT: f64 = 17.0;
/// The width of one character of the monospace font, in units.
const CHAR_W: f64 = FONT * 0.61;
const HEAD_H: f64 = 32.0;
const ROW_H: f64 = 30.0;
const LABEL_H: f64 = 24.0;
/// Longest value and key shown (longer ones end in `…`).
const MAX_VALUE_CHARS: usize = 6;
const MAX_KEY_CHARS: usize = 10;

/// `s`, cut to `max` characters with `…`.
fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

fn f(v: f64) -> String {
    format!("{v:.1}")
}

/// Where things go: the key column's width, a column's width, the whole size, and the line of
/// each struck group's label.
#[derive(Debug, PartialEq)]
pub struct Layout {
    /// Width of the key column.
    pub key_w: f64,
    /// Width of one column.
    pub col_w: f64,
    /// Width of the figure.
    pub width: f64,
    /// Height of the figure.
    pub height: f64,
    /// Rows drawn (keys, and one more when some are left out).
    pub rows: usize,
    /// Each struck group's label: (first column index, last, x, line).
    pub labels: Vec<(usize, usize, f64, usize)>,
}

/// The text of a struck group's label: the call that struck it.
fn label_text(c: &FigureColumn) -> String {
    match (c.state, c.struck_by) {
        (ColumnState::Deleted, Some(n)) => format!("deleteSnapshotsUpTo({n})"),
        (ColumnState::Reverted, Some(n)) => format!("revertToSnapshot({n})"),
        _ => String::new(),
    }
}

/// Runs of neighbouring columns struck by the same call: (first index, last index).
fn struck_groups(columns: &[FigureColumn]) -> Vec<(usize, usize)> {
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for (i, c) in columns.iter().enumerate() {
        if c.struck_by.is_none() {
            continue;
        }
        match groups.last_mut() {
            Some((_, last))
                if *last + 1 == i
                    && columns[*last].state == c.state
                    && columns[*last].struck_by == c.struck_by =>
            {
                *last = i
            }
            _ => groups.push((i, i)),
        }
    }
    groups
}

/// The layout of `columns` (now last) with `keys` as rows.
/// `restored`: some value is drawn with `↺ ` before it.
pub fn layout(columns: &[FigureColumn], keys: &[String], restored: bool) -> Layout {
    let longest_key = keys.iter().map(|k| k.chars().count()).max().unwrap_or(0);
    let key_w = (longest_key.min(MAX_KEY_CHARS) as f64 * CHAR_W + 18.0).max(80.0);
    let longest_value = columns
        .iter()
        .flat_map(|c| c.values.iter().flatten().map(|(_, v)| v.chars().count()))
        .max()
        .unwrap_or(0)
        .clamp(4, MAX_VALUE_CHARS);
    let chars = longest_value + if restored { 2 } else { 0 };
    let col_w = (chars as f64 * CHAR_W + 18.0).max(70.0);
    let width = key_w + columns.len() as f64 * col_w + 4.0;
    // A map without keys still gets a row, that says so.
    let rows = keys.len().clamp(1, MAX_ROWS) + usize::from(keys.len() > MAX_ROWS);
    // Labels go on the first line where they overlap nothing, kept inside the figure.
    let mut taken: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut labels = Vec::new();
    for (first, last) in struck_groups(columns) {
        let w = label_text(&columns[first]).chars().count() as f64 * CHAR_W;
        let x = (key_w + first as f64 * col_w + 4.0)
            .min(width - w - 2.0)
            .max(2.0);
        let line = taken
            .iter()
            .position(|spans| {
                spans
                    .iter()
                    .all(|&(a, b)| x + w + 12.0 <= a || x >= b + 12.0)
            })
            .unwrap_or(taken.len());
        if line == taken.len() {
            taken.push(Vec::new());
        }
        taken[line].push((x, x + w));
        labels.push((first, last, x, line));
    }
    let height = HEAD_H + rows as f64 * ROW_H + 10.0 + taken.len() as f64 * LABEL_H;
    Layout {
        key_w,
        col_w,
        width,
        height,
        rows,
        labels,
    }
}

/// The value `key` has in `column`: `Some(None)` absent, `None` unknown.
fn value_of<'a>(column: &'a FigureColumn, key: &str) -> Option<Option<&'a str>> {
    let values = column.values.as_ref()?;
    Some(
        values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str()),
    )
}

/// What the figure needs besides the columns: which keys the last command changed or a revert
/// brought back, with the values they came back to.
struct Marks<'a> {
    /// The key the last put/remove changed (lit in the now column).
    changed: Option<&'a str>,
    /// The key and value the last revert brought back, and whether that revert was the last
    /// command.
    restored: Vec<(&'a str, Option<&'a str>)>,
    restored_lit: bool,
    /// The offset the columns are coloured by.
    committed: Option<i64>,
}

impl<'a> Marks<'a> {
    fn of(t: &'a TimelineView) -> Self {
        let h = &t.history;
        let last = h.commands;
        Marks {
            changed: h
                .changed
                .as_ref()
                .filter(|(_, at)| *at == last && last > 0)
                .map(|(k, _)| k.as_str()),
            restored: h
                .restored
                .iter()
                .flat_map(|(r, _)| r.iter().map(|(k, v)| (k.as_str(), v.as_deref())))
                .collect(),
            restored_lit: h.restored.as_ref().is_some_and(|(_, at)| *at == last),
            committed: t.committed(),
        }
    }
}

/// One cell: `key`'s value in column `c`.
fn cell(c: &FigureColumn, key: &str, x: f64, y: f64, l: &Layout, marks: &Marks) -> Html {
    let value = value_of(c, key);
    let now = c.epoch.is_none();
    // ↺: the revert brought this value back and it still holds.
    let restored = now
        && marks
            .restored
            .iter()
            .any(|(k, v)| *k == key && value == Some(*v));
    let lit = now && (marks.changed == Some(key) || (restored && marks.restored_lit));
    let saved = c.saved.iter().any(|k| k == key);
    let (text, absent) = match value {
        Some(Some(v)) => (clip(v, MAX_VALUE_CHARS), false),
        Some(None) => ("null".to_string(), true),
        None => (String::new(), false),
    };
    let cx = x + l.col_w / 2.0;
    html! {
        <g class={classes!("tf-cell", absent.then_some("absent"))} data-row={key.to_string()}
           data-absent={absent.to_string()} data-unknown={value.is_none().to_string()} data-saved={saved.to_string()}
           data-restored={restored.to_string()} data-lit={lit.to_string()}>
            if lit {
                <rect class="tf-lit" x={f(x + 5.0)} y={f(y + 3.0)} width={f(l.col_w - 10.0)} height={f(ROW_H - 6.0)} rx="5" />
            }
            <title>{ value.map(|v| v.unwrap_or("null")).unwrap_or("?").to_string() }</title>
            <text x={f(cx)} y={f(y + ROW_H / 2.0 + FONT * 0.35)} text-anchor="middle">
                if restored { <tspan class="tf-restored">{"↺ "}</tspan> }
                { text }
            </text>
            if saved {
                <circle class="tf-saved" cx={f(x + l.col_w - 10.0)} cy={f(y + 9.0)} r="5" />
            }
        </g>
    }
}

/// Column `i`: its tinted band, header (the offset, or now), cells, strike and lit outline.
fn column(
    i: usize,
    c: &FigureColumn,
    keys: &[String],
    l: &Layout,
    t: &TimelineText,
    marks: &Marks,
) -> Html {
    let x = l.key_w + i as f64 * l.col_w;
    let bottom = HEAD_H + l.rows as f64 * ROW_H;
    let struck = c.struck_by.is_some();
    let head = c.epoch.map_or(t.now.to_string(), |e| e.to_string());
    let inner = (x + 3.0, l.col_w - 6.0);
    html! {
        <g class={classes!("tf-col", format!("st-{}", c.state.name()), c.epoch.is_none().then_some("now"))}
           data-offset={c.epoch.map_or("now".to_string(), |e| e.to_string())}
           data-state={c.state.name()} data-lit={c.lit.to_string()}
           data-struck-by={c.struck_by.map(|n| n.to_string()).unwrap_or_default()}>
            <rect class="tf-band" x={f(inner.0)} y="2" width={f(inner.1)} height={f(bottom - 2.0)} rx="6" />
            <rect class="tf-head" x={f(inner.0)} y="2" width={f(inner.1)} height={f(HEAD_H - 4.0)} rx="6" />
            <text class="tf-head-text" x={f(x + l.col_w / 2.0)} y={f(HEAD_H / 2.0 + FONT * 0.35)} text-anchor="middle">{ head }</text>
            { for keys.iter().take(MAX_ROWS).enumerate().map(|(r, k)| cell(c, k, x, HEAD_H + r as f64 * ROW_H, l, marks)) }
            if struck {
                <line class="tf-strike" x1={f(inner.0 + 4.0)} y1={f(HEAD_H + 2.0)} x2={f(inner.0 + inner.1 - 4.0)} y2={f(bottom - 4.0)} />
                <line class="tf-head-strike" x1={f(inner.0 + 10.0)} y1={f(HEAD_H / 2.0)} x2={f(inner.0 + inner.1 - 10.0)} y2={f(HEAD_H / 2.0)} />
            }
            if c.lit {
                <rect class="tf-lit" x={f(x)} y="0" width={f(l.col_w)} height={f(bottom + 2.0)} rx="8" />
            }
        </g>
    }
}

/// The key column: the axis label and each key (and how many are left out).
fn key_column(keys: &[String], l: &Layout, t: &TimelineText) -> Html {
    let baseline = |r: usize| HEAD_H + r as f64 * ROW_H + ROW_H / 2.0 + FONT * 0.35;
    let more = keys.len().saturating_sub(MAX_ROWS);
    html! {
        <g class="tf-keys">
            <text class="tf-axis-label" x="4" y={f(HEAD_H / 2.0 + FONT * 0.35)}>{ format!("{} →", t.offset) }</text>
            { for keys.iter().take(MAX_ROWS).enumerate().map(|(r, k)| html! {
                <g class="tf-key" data-row={k.clone()}>
                    <title>{ k.clone() }</title>
                    <text x="4" y={f(baseline(r))}>{ clip(k, MAX_KEY_CHARS) }</text>
                </g>
            }) }
            if more > 0 {
                <text class="tf-more" x="4" y={f(baseline(MAX_ROWS))}>{ format!("+{more}") }</text>
            }
            if keys.is_empty() {
                <text class="tf-more empty" x="4" y={f(baseline(0))}>{ t.empty }</text>
            }
            <line class="tf-axis" x1="2" y1={f(HEAD_H)} x2={f(l.width - 2.0)} y2={f(HEAD_H)} />
            { for (0..l.rows + 1).skip(1).map(|r| html! {
                <line class="tf-row-line" x1="2" y1={f(HEAD_H + r as f64 * ROW_H)} x2={f(l.width - 2.0)} y2={f(HEAD_H + r as f64 * ROW_H)} />
            }) }
        </g>
    }
}

/// Under the struck columns, a bracket and the call that struck them.
fn labels(columns: &[FigureColumn], l: &Layout) -> Html {
    let top = HEAD_H + l.rows as f64 * ROW_H + 6.0;
    html! {
        <g class="tf-labels">
            { for l.labels.iter().map(|&(first, last, x, line)| {
                let c = &columns[first];
                let (x1, x2) = (l.key_w + first as f64 * l.col_w + 6.0, l.key_w + (last + 1) as f64 * l.col_w - 6.0);
                let y = top + line as f64 * LABEL_H;
                html! {
                    <g class={classes!("tf-label", format!("st-{}", c.state.name()))} data-state={c.state.name()}
                       data-lit={c.lit.to_string()}>
                        <line class="tf-bracket" x1={f(x1)} y1={f(top - 2.0)} x2={f(x2)} y2={f(top - 2.0)} />
                        <text x={f(x)} y={f(y + FONT)}>{ label_text(c) }</text>
                    </g>
                }
            }) }
        </g>
    }
}

/// The legend: committed (with its offset) and applied, then only what the figure shows: struck
/// columns of each kind, saved and restored marks, absent values, columns left out.
fn legend(
    columns: &[FigureColumn],
    keys: &[String],
    hidden: usize,
    marks: &Marks,
    t: &TimelineText,
) -> Html {
    let item = |class: &'static str, swatch: &'static str, text: String| {
        html! {
            <li class={classes!("tf-key-item", class)}><span class="tf-swatch" aria-hidden="true">{ swatch }</span>{ text }</li>
        }
    };
    let has = |s: ColumnState| columns.iter().any(|c| c.state == s);
    let saved = columns.iter().any(|c| !c.saved.is_empty());
    let absent = columns
        .iter()
        .filter_map(|c| c.values.as_ref())
        .any(|v| keys.iter().any(|k| !v.iter().any(|(key, _)| key == k)));
    html! {
        <ul class="tf-legend">
            { item("st-committed", "", match marks.committed {
                Some(c) => format!("{} ≤ {c}", t.committed),
                None => t.committed.to_string(),
            }) }
            { item("st-applied", "", t.applied.to_string()) }
            if has(ColumnState::Deleted) { { item("st-deleted", "", t.deleted.to_string()) } }
            if has(ColumnState::Reverted) { { item("st-reverted", "", t.reverted.to_string()) } }
            if saved { { item("saved", "●", t.saved.to_string()) } }
            if !marks.restored.is_empty() { { item("came-back", "↺", t.restored.to_string()) } }
            if absent { { item("tf-absent", "", t.absent.to_string()) } }
            if hidden > 0 {
                { item("older", "…", format!("{} {hidden}", t.older)) }
            }
        </ul>
    }
}

/// The columns drawn, in order: all of them when they fit, else the live ones (the newest
/// `max`) and the newest struck ones, then now; and how many were left out.
pub fn shown_columns(mut columns: Vec<FigureColumn>, max: usize) -> (Vec<FigureColumn>, usize) {
    let now = columns.pop();
    let hidden = columns.len().saturating_sub(max);
    if hidden > 0 {
        let mut order: Vec<usize> = (0..columns.len()).rev().collect();
        order.sort_by_key(|&i| columns[i].struck_by.is_some());
        let mut keep: Vec<usize> = order.into_iter().take(max).collect();
        keep.sort_unstable();
        columns = keep.into_iter().map(|i| columns[i].clone()).collect();
    }
    columns.extend(now);
    (columns, hidden)
}

/// Properties of [`TimelineFigure`].
#[derive(Properties, PartialEq)]
pub struct TimelineFigureProps {
    /// What to draw.
    pub timeline: TimelineView,
    /// Prefix of the element ids: `tl` (lesson 03's panel) draws `#timeline-figure` and
    /// `#timeline-lines`, others `#{prefix}-timeline-figure`.
    pub id_prefix: AttrValue,
}

/// The figure, its legend and the printed lines.
#[component]
pub fn TimelineFigure(props: &TimelineFigureProps) -> Html {
    let t = TimelineText::of(use_lang());
    let tl = &props.timeline;
    let standalone = props.id_prefix.as_str() == "tl";
    let max = if standalone {
        MAX_COLUMNS
    } else {
        MAX_COLUMNS - 1
    };
    let (columns, hidden) = shown_columns(tl.figure_columns(), max);
    let keys = TimelineView::figure_keys(&columns);
    let marks = Marks::of(tl);
    let l = layout(&columns, &keys, !marks.restored.is_empty());
    let id = |name: &str| match props.id_prefix.as_str() {
        "tl" => name.to_string(),
        p => format!("{p}-{name}"),
    };
    let history = &tl.history;
    let committed = tl.committed();
    html! {
        <div class="timeline-figure" id={id("timeline-figure")}
             data-committed={committed.map(|c| c.to_string()).unwrap_or_default()}
             data-columns={columns.len().to_string()} data-hidden={hidden.to_string()}>
            <svg viewBox={format!("0 0 {} {}", f(l.width), f(l.height))} role="img" aria-label={t.aria}
                 style={format!("--tf-w: {:.2}em", l.width / 20.0)}>
                { key_column(&keys, &l, t) }
                { for columns.iter().enumerate().map(|(i, c)| column(i, c, &keys, &l, t, &marks)) }
                { labels(&columns, &l) }
            </svg>
            { legend(&columns, &keys, hidden, &marks, t) }
            if !history.lines.is_empty() {
                <div class="tf-lines-box" aria-label={t.lines}>
                    <ol class="tf-lines" id={id("timeline-lines")}>
                        { for history.lines.iter().map(|line| {
                            let lit = line.command == history.commands;
                            html! {
                                <li data-lit={lit.to_string()} data-command={line.command.to_string()}
                                    class={classes!(lit.then_some("lit"))}>{ line.text.clone() }</li>
                            }
                        }) }
                    </ol>
                </div>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(epoch: Option<i64>, state: ColumnState, struck_by: Option<i64>) -> FigureColumn {
        FigureColumn {
            epoch,
            state,
            values: Some(vec![("orders".into(), "id-A".into())]),
            saved: Vec::new(),
            struck_by,
            lit: false,
        }
    }

    /// Example 3's end: the two calls' labels do not overlap and stay inside the figure.
    #[test]
    fn labels_fit_and_do_not_overlap() {
        let cols = [
            col(Some(10), ColumnState::Deleted, Some(11)),
            col(Some(11), ColumnState::Committed, None),
            col(Some(12), ColumnState::Reverted, Some(11)),
            col(None, ColumnState::Committed, None),
        ];
        let keys = ["orders".to_string(), "payments".to_string()];
        let l = layout(&cols, &keys, true);
        assert_eq!(l.rows, 2);
        assert_eq!(l.labels.len(), 2);
        let spans: Vec<(f64, f64, usize)> = l
            .labels
            .iter()
            .map(|&(i, _, x, line)| {
                (
                    x,
                    x + label_text(&cols[i]).chars().count() as f64 * CHAR_W,
                    line,
                )
            })
            .collect();
        for &(a, b, _) in &spans {
            assert!(a >= 0.0 && b <= l.width, "{spans:?} in {}", l.width);
        }
        let (s0, s1) = (spans[0], spans[1]);
        assert!(s0.2 != s1.2 || s0.1 <= s1.0 || s1.1 <= s0.0, "{spans:?}");
        // At the default text size the figure fits the stage's side panel at 1280×720.
        assert!(l.width <= 520.0, "{}", l.width);
    }

    #[test]
    fn neighbours_struck_by_one_call_share_a_label() {
        let cols = [
            col(Some(9), ColumnState::Deleted, Some(11)),
            col(Some(10), ColumnState::Deleted, Some(11)),
            col(Some(12), ColumnState::Reverted, Some(11)),
            col(Some(13), ColumnState::Reverted, Some(11)),
            col(None, ColumnState::Applied, None),
        ];
        assert_eq!(struck_groups(&cols), [(0, 1), (2, 3)]);
        assert_eq!(clip("AbCdEfGhIj", 7), "AbCdEf…");
        assert_eq!(clip("id-A", 7), "id-A");
    }

    /// Inside the controller panel (about 480 px wide at 1280×720): three snapshots of topic
    /// ids and now fit at full size, with a long topic name.
    #[test]
    fn topic_ids_fit_the_controller_panel() {
        let uuid = |e: Option<i64>, state| FigureColumn {
            values: Some(vec![(
                "a-rather-long-topic-name".into(),
                "U9aCKdHE74-9yS0JSetndw".into(),
            )]),
            ..col(e, state, None)
        };
        let cols = [
            uuid(Some(38), ColumnState::Committed),
            uuid(Some(39), ColumnState::Committed),
            uuid(Some(40), ColumnState::Applied),
            uuid(None, ColumnState::Applied),
        ];
        let keys = TimelineView::figure_keys(&cols);
        let l = layout(&cols, &keys, false);
        assert!(l.width <= 470.0, "{}", l.width);
    }

    /// Too many columns: the live ones stay, then the newest struck ones, in their order.
    #[test]
    fn live_columns_are_drawn_first() {
        let mut cols = vec![col(Some(26), ColumnState::Committed, None)];
        cols.extend((27..36).map(|e| col(Some(e), ColumnState::Reverted, Some(26))));
        cols.push(col(None, ColumnState::Committed, None));
        let (shown, hidden) = shown_columns(cols, MAX_COLUMNS);
        let epochs: Vec<Option<i64>> = shown.iter().map(|c| c.epoch).collect();
        assert_eq!(epochs, [Some(26), Some(33), Some(34), Some(35), None]);
        assert_eq!(hidden, 6);
        let few = vec![
            col(Some(10), ColumnState::Committed, None),
            col(None, ColumnState::Committed, None),
        ];
        assert_eq!(shown_columns(few.clone(), MAX_COLUMNS), (few, 0));
    }
}
