//! Parsers for the arguments the console and the CLI share: durations (`10s`, `250ms`) and
//! node id lists (`101,102,103`).

/// Parse `10s`, `250ms`, `2m`, `1h` or a bare number of ms.
pub fn parse_duration_ms(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (num, mult) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1000)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60_000)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3_600_000)
    } else {
        (t, 1)
    };
    let v: u64 = num
        .parse()
        .map_err(|_| format!("'{text}' is not a duration (try 250ms, 10s, 2m, 1h)"))?;
    v.checked_mul(mult)
        .ok_or_else(|| format!("duration '{text}' is too large"))
}

/// Parse `101,102,103`.
pub fn parse_ids(text: &str) -> Result<Vec<i32>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|p| {
            p.trim()
                .parse::<i32>()
                .map_err(|_| format!("'{p}' is not a node id"))
                .and_then(|id| {
                    if id < 0 {
                        Err(format!("node id {id} is negative"))
                    } else {
                        Ok(id)
                    }
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_ids_parse_with_clear_errors() {
        assert_eq!(parse_duration_ms("10s"), Ok(10_000));
        assert_eq!(parse_duration_ms("250ms"), Ok(250));
        assert_eq!(parse_duration_ms("2m"), Ok(120_000));
        assert_eq!(parse_duration_ms("42"), Ok(42));
        assert!(parse_duration_ms("ten")
            .unwrap_err()
            .contains("not a duration"));
        assert_eq!(parse_ids("101, 102,103"), Ok(vec![101, 102, 103]));
        assert!(parse_ids("1,x")
            .unwrap_err()
            .contains("'x' is not a node id"));
        assert!(parse_ids("-3").unwrap_err().contains("negative"));
    }
}
