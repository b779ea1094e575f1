//! Every command not in the console's table: one of Kafka's tools (`kafka-topics.sh`,
//! `kafka-metadata-quorum.sh`, ...) or a file command (`ls`, `cat`, `grep`, ...), run by
//! [`crate::tools::run`]; anything else is an unknown command.

use super::{Call, Console};

impl Console {
    /// Run `cmd` (also as `bin/kafka-topics` or without `.sh`) as one of [`crate::tools::COMMANDS`].
    pub(super) fn tool(&mut self, cmd: &str, call: &Call) -> Result<String, String> {
        let name = cmd.rsplit('/').next().unwrap_or(cmd);
        let known = crate::tools::COMMANDS
            .iter()
            .any(|c| *c == name || c.strip_suffix(".sh") == Some(name));
        if !known {
            return Err(format!(
                "unknown command '{cmd}' (`help` lists them; console commands: cluster, set, step, tick, sleep, run, kill, start, add-broker, add-node, slow, partition, heal, drop, status, mark, transitions, expect, timeline; tools: {})",
                crate::tools::COMMANDS.join(", ")
            ));
        }
        let w = self.world()?;
        shown(crate::tools::run(w, call.words))
    }

    /// `echo "v" | kafka-console-producer.sh ...`: a pipeline into one of the tools.
    pub(super) fn piped(&mut self, line: &str) -> Result<String, String> {
        let w = self.world()?;
        match crate::tools::pipe::run_line(w, line) {
            Some(r) => shown(r),
            None => Err(format!("not a pipeline: {line}")),
        }
    }
}

/// What the console shows for a tool's result.
fn shown(result: Result<String, crate::tools::ToolError>) -> Result<String, String> {
    {
        match result {
            Ok(out) => Ok(out.trim_end_matches('\n').to_string()),
            // A tool that failed silently (killed by `timeout`, exit 124) prints nothing.
            Err(e) if e.text().is_empty() => Ok(String::new()),
            Err(e) => Err(e.text().trim_end_matches('\n').to_string()),
        }
    }
}
