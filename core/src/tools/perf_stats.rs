//! The perf test's pieces from Kafka: its Stats (ProducerPerformance.java:335-455: windows of
//! 5 s, the summary with percentiles), Java's SplittableRandom (the payload's letters), and
//! `%.Nf` as java.util.Formatter rounds (HALF_UP).

/// ProducerPerformance.Stats: counts, latencies and what it printed so far.
pub struct Stats {
    start: u64,
    window_start: u64,
    latencies: Vec<u64>,
    count: u64,
    bytes: u64,
    max_latency: u64,
    total_latency: u64,
    window_count: u64,
    window_max_latency: u64,
    window_total_latency: u64,
    window_bytes: u64,
    /// The lines printed so far.
    pub out: String,
}

/// The reporting interval (`new Stats(config.numRecords, 5000)`, :78).
const REPORTING_INTERVAL_MS: u64 = 5_000;

impl Stats {
    /// Stats for `num_records` starting at `now` (virtual ms).
    pub fn new(num_records: i64, now: u64) -> Stats {
        Stats {
            start: now,
            window_start: now,
            latencies: Vec::with_capacity(num_records.clamp(0, 500_000) as usize),
            count: 0,
            bytes: 0,
            max_latency: 0,
            total_latency: 0,
            window_count: 0,
            window_max_latency: 0,
            window_total_latency: 0,
            window_bytes: 0,
            out: String::new(),
        }
    }

    /// Stats.record: one acknowledged record (every one is sampled: `iteration` never grows
    /// in Kafka's Stats, so `iteration % sampling == 0` always holds).
    pub fn record(&mut self, latency: u64, bytes: usize, now: u64) {
        self.count += 1;
        self.bytes += bytes as u64;
        self.total_latency += latency;
        self.max_latency = self.max_latency.max(latency);
        self.window_count += 1;
        self.window_bytes += bytes as u64;
        self.window_total_latency += latency;
        self.window_max_latency = self.window_max_latency.max(latency);
        if self.latencies.len() < 500_001 {
            self.latencies.push(latency);
        }
        if now - self.window_start >= REPORTING_INTERVAL_MS {
            self.print_window(now);
            self.window_start = now;
            self.window_count = 0;
            self.window_max_latency = 0;
            self.window_total_latency = 0;
            self.window_bytes = 0;
        }
    }

    fn print_window(&mut self, now: u64) {
        let elapsed = (now - self.window_start) as f64;
        let recs = 1000.0 * self.window_count as f64 / elapsed;
        let mb = 1000.0 * self.window_bytes as f64 / elapsed / (1024.0 * 1024.0);
        self.out.push_str(&format!(
            "{} records sent, {} records/sec ({} MB/sec), {} ms avg latency, {} ms max latency.\n",
            self.window_count,
            java_fixed(recs, 1),
            java_fixed(mb, 2),
            java_fixed(
                self.window_total_latency as f64 / self.window_count as f64,
                1
            ),
            java_fixed(self.window_max_latency as f64, 1)
        ));
    }

    /// Stats.printTotal (:425-441).
    pub fn print_total(&mut self, now: u64) {
        let elapsed = now.saturating_sub(self.start) as f64;
        let recs = 1000.0 * self.count as f64 / elapsed;
        let mb = 1000.0 * self.bytes as f64 / elapsed / (1024.0 * 1024.0);
        let mut l = self.latencies.clone();
        l.sort_unstable();
        let perc = |p: f64| l.get((p * l.len() as f64) as usize).copied().unwrap_or(0);
        self.out.push_str(&format!(
            "{} records sent, {} records/sec ({} MB/sec), {} ms avg latency, {} ms max latency, {} ms 50th, {} ms 95th, {} ms 99th, {} ms 99.9th.\n",
            self.count,
            java_fixed(recs, 1),
            java_fixed(mb, 2),
            java_fixed(self.total_latency as f64 / self.count as f64, 2),
            java_fixed(self.max_latency as f64, 2),
            perc(0.5),
            perc(0.95),
            perc(0.99),
            perc(0.999)
        ));
    }
}

/// `String.format("%.Nf", v)`: the exact decimal value rounded HALF_UP; NaN and infinities
/// as Java prints them.
pub fn java_fixed(v: f64, digits: usize) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    // Rust prints the exact binary value to the precision asked; 40 more digits decide ties.
    let exact = format!("{:.*}", digits + 40, v.abs());
    let (int, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let mut digits_v: Vec<u8> = int
        .bytes()
        .chain(frac.bytes().take(digits))
        .map(|b| b - b'0')
        .collect();
    if frac.as_bytes().get(digits).is_some_and(|d| *d >= b'5') {
        let mut i = digits_v.len();
        loop {
            if i == 0 {
                digits_v.insert(0, 1);
                break;
            }
            i -= 1;
            if digits_v[i] == 9 {
                digits_v[i] = 0;
            } else {
                digits_v[i] += 1;
                break;
            }
        }
    }
    let int_len = digits_v.len() - digits;
    let s: String = digits_v.iter().map(|d| (b'0' + d) as char).collect();
    let sign = if v < 0.0 && s.bytes().any(|b| b != b'0') {
        "-"
    } else {
        ""
    };
    if digits == 0 {
        return format!("{sign}{s}");
    }
    format!("{sign}{}.{}", &s[..int_len], &s[int_len..])
}

/// java.util.SplittableRandom (JDK 17): what ProducerPerformance draws its payload from.
pub struct SplittableRandom {
    seed: u64,
}

/// SplittableRandom.GOLDEN_GAMMA.
const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

impl SplittableRandom {
    /// `new SplittableRandom(seed)`.
    pub fn new(seed: u64) -> SplittableRandom {
        SplittableRandom { seed }
    }

    fn next_seed(&mut self) -> u64 {
        self.seed = self.seed.wrapping_add(GOLDEN_GAMMA);
        self.seed
    }

    /// SplittableRandom.mix32.
    fn mix32(z: u64) -> i32 {
        let z = (z ^ (z >> 33)).wrapping_mul(0x62a9_d9ed_7997_05f5);
        ((z ^ (z >> 28)).wrapping_mul(0xcb24_d0a5_c88c_35b3) >> 32) as i32
    }

    /// `nextInt(bound)` (RandomSupport.boundedNextInt).
    pub fn next_int(&mut self, bound: i32) -> i32 {
        let mut r = Self::mix32(self.next_seed());
        let m = bound - 1;
        if bound & m == 0 {
            return r & m;
        }
        let mut u = ((r as u32) >> 1) as i32;
        loop {
            r = u % bound;
            if u.wrapping_add(m).wrapping_sub(r) >= 0 {
                return r;
            }
            u = ((Self::mix32(self.next_seed()) as u32) >> 1) as i32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_rounding_is_half_up() {
        assert_eq!(java_fixed(0.25, 1), "0.3");
        assert_eq!(java_fixed(2.0, 2), "2.00");
        assert_eq!(java_fixed(9.96, 1), "10.0");
        assert_eq!(java_fixed(f64::INFINITY, 1), "Infinity");
    }
}
