//! The `#produce TOPIC-N COUNT` line of an address's `cmds=`: records written to a data
//! partition through the engine's World (`kraft_core::lesson::test_records`), for the page's
//! browser checks of the data plane while the console has no producer tool. Recorded like any
//! input, so rewinds and the address replay it.

use kraft_core::lesson::rewind::Input;
use kraft_core::lesson::test_records::{produce_test_records, MAX_TEST_RECORDS};

use super::Playground;

/// In `cmds`, a line `#produce orders-0 5` writes 5 records to `orders-0`.
pub const PRODUCE_PREFIX: &str = "#produce ";

/// The line that writes `count` records to partition `name`.
pub fn produce_text(name: &str, count: usize) -> String {
    format!("{PRODUCE_PREFIX}{name} {count}")
}

/// Reads `#produce TOPIC-N COUNT`: (partition, count).
pub fn produce_line(line: &str) -> Result<(String, usize), String> {
    let bad = || {
        format!("`{line}` is not `{PRODUCE_PREFIX}TOPIC-N COUNT` (COUNT 1 to {MAX_TEST_RECORDS})")
    };
    let rest = line.strip_prefix(PRODUCE_PREFIX).ok_or_else(bad)?;
    let (name, count) = rest.trim().split_once(' ').ok_or_else(bad)?;
    let count: usize = count
        .trim()
        .parse()
        .ok()
        .filter(|c| (1..=MAX_TEST_RECORDS).contains(c))
        .ok_or_else(bad)?;
    Ok((name.to_string(), count))
}

impl Playground {
    /// Replays a `#produce` line: writes the records, keeps the input and the line.
    pub(super) fn replay_produce(&mut self, line: &str, errors: &mut Vec<String>) {
        let (name, count) = match produce_line(line) {
            Ok(parsed) => parsed,
            Err(e) => return errors.push(e),
        };
        let before = self.events_run();
        let result = match self.console.borrow_mut().world.as_mut() {
            Some(world) => produce_test_records(world, &name, count),
            None => Err("no cluster yet".into()),
        };
        if let Err(e) = result {
            errors.push(format!("`{line}`: {e}"));
            return;
        }
        self.record_input(Input::Produce(name.clone(), count), before);
        std::rc::Rc::make_mut(&mut self.history).push(produce_text(&name, count));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::open;
    use super::*;

    #[test]
    fn produce_lines_read_back_and_bad_ones_say_why() {
        assert_eq!(
            produce_line("#produce orders-0 5"),
            Ok(("orders-0".into(), 5))
        );
        assert_eq!(produce_text("orders-0", 5), "#produce orders-0 5");
        assert!(produce_line("#produce orders-0").is_err());
        assert!(produce_line("#produce orders-0 0")
            .unwrap_err()
            .contains("COUNT"));
        assert!(produce_line("#produce orders-0 x").is_err());
    }

    #[test]
    fn an_address_writes_records_and_the_view_shows_them() {
        let cmds = [
            "cluster controllers=101,102,103 brokers=1,2,3 seed=7",
            "run until=leader timeout=10s",
            "sleep 5s",
            "kafka-topics.sh --bootstrap-server localhost:9092 --create --topic orders --replication-factor 3",
            "sleep 2s",
            "#produce orders-0 4",
            "sleep 1s",
        ];
        let s = open(&format!(
            "?cmds={}",
            crate::address::encode_cmds(&cmds.map(String::from))
        ));
        assert_eq!(s.last_error, None);
        let view = s.view.as_ref().unwrap();
        let p = &view.data_partitions[0];
        assert_eq!(p.leader_high_watermark, Some(4));
        assert!(s.history.iter().any(|l| l == "#produce orders-0 4"));
        let bad = open("?cmds=%23produce%20nope-0%201");
        assert!(bad.last_error.clone().unwrap().contains("nope-0"));
    }
}
