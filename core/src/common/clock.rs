//! Virtual time. The world counts milliseconds from zero; tools print them as wall-clock times
//! starting at [`BASE_EPOCH_MS`], so every run of a seed prints the same timestamps.

/// Wall-clock time (Unix ms) that virtual time 0 is printed as: 2024-10-25 09:53:20 UTC,
/// the CreateTime Kafka's own examples use.
pub const BASE_EPOCH_MS: u64 = 1_729_850_000_000;

/// Virtual ms to the Unix ms that tools print.
pub fn to_epoch_ms(now_ms: u64) -> u64 {
    BASE_EPOCH_MS + now_ms
}

/// (year, month, day) of a count of days since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Parts of a Unix ms time in UTC: (year, month, day, hour, minute, second, millisecond).
fn parts(epoch_ms: u64) -> (i64, u32, u32, u64, u64, u64, u64) {
    let ms = epoch_ms % 1000;
    let secs = epoch_ms / 1000;
    let (y, mo, d) = civil_from_days((secs / 86_400) as i64);
    let sod = secs % 86_400;
    (y, mo, d, sod / 3600, sod % 3600 / 60, sod % 60, ms)
}

/// log4j's `%d` layout: `2024-10-25 09:53:20,123`.
pub fn log4j_timestamp(now_ms: u64) -> String {
    let (y, mo, d, h, mi, s, ms) = parts(to_epoch_ms(now_ms));
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02},{ms:03}")
}

/// Java's `ZonedDateTime` text as kafka-metadata-shell prints provenance:
/// `2024-10-25T09:53:20.123Z[UTC]`.
pub fn iso_utc(now_ms: u64) -> String {
    let (y, mo, d, h, mi, s, ms) = parts(to_epoch_ms(now_ms));
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{ms:03}Z[UTC]")
}

/// A duration for people: `1500` -> `1.500s`, `250` -> `250ms`.
pub fn human_ms(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms}ms")
    } else {
        format!("{}.{:03}s", ms / 1000, ms % 1000)
    }
}

/// A duration as the console's arguments spell it: `1h`, `90m`, `15s`, `250ms` (the largest
/// unit that divides it).
pub fn duration_text(ms: u64) -> String {
    match ms {
        0 => "0ms".to_string(),
        ms if ms % 3_600_000 == 0 => format!("{}h", ms / 3_600_000),
        ms if ms % 60_000 == 0 => format!("{}m", ms / 60_000),
        ms if ms % 1000 == 0 => format!("{}s", ms / 1000),
        ms => format!("{ms}ms"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_print_in_the_largest_unit() {
        assert_eq!(duration_text(3_600_000), "1h");
        assert_eq!(duration_text(3_600_000_000), "1000h");
        assert_eq!(duration_text(90_000), "90s");
        assert_eq!(duration_text(120_000), "2m");
        assert_eq!(duration_text(1_507), "1507ms");
    }

    #[test]
    fn base_time_prints_as_kafka_examples() {
        assert_eq!(log4j_timestamp(0), "2024-10-25 09:53:20,000");
        assert_eq!(iso_utc(123), "2024-10-25T09:53:20.123Z[UTC]");
        assert_eq!(
            log4j_timestamp(86_400_000 * 7 + 1),
            "2024-11-01 09:53:20,001"
        );
    }
}
