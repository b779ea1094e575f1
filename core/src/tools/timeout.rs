//! `timeout DURATION COMMAND [ARG]...` (GNU coreutils): runs one of the tools and kills it when
//! DURATION of virtual time has passed, as an operator gives up on a tool that waits (Ctrl-C).
//! A killed tool prints nothing and exits 124; what it had sent stays sent, so a voter change
//! it asked for stays pending at the leader.
//!
//! Follows coreutils `src/timeout.c`: DURATION is a floating-point number with an optional
//! suffix `s` (the default), `m`, `h` or `d`; 0 disables the timeout; a bad interval or a
//! missing operand exits 125, a command not found 127. Options (`-s`, `-k`, ...) are not
//! simulated.

use super::ToolError;
use crate::sim::World;

/// The exit status of a command that timed out.
pub const TIMED_OUT: i32 = 124;

/// Longest timeout kept (ms); a longer one (coreutils clamps too) is the same as none.
const MAX_MS: f64 = 1.0e15;

/// Run `timeout` with its arguments (`args` excludes `timeout` itself).
pub fn run(world: &mut World, args: &[String]) -> Result<String, ToolError> {
    let Some(duration) = args.first() else {
        return Err(usage_error("missing operand"));
    };
    if duration.starts_with('-') && duration.len() > 1 && parse_ms(duration).is_none() {
        return Err(usage_error(&format!(
            "option '{duration}' is not simulated by the KRaft Playground"
        )));
    }
    let Some(ms) = parse_ms(duration) else {
        return Err(usage_error(&format!("invalid time interval ‘{duration}’")));
    };
    let command = &args[1..];
    let Some(name) = command.first() else {
        return Err(usage_error("missing operand"));
    };
    if name == "timeout"
        || !super::COMMANDS
            .iter()
            .any(|c| tool_name(c) == tool_name(name))
    {
        return Err(ToolError {
            stdout: String::new(),
            message: format!(
                "timeout: failed to run command ‘{name}’: No such file or directory\n"
            ),
            exit_code: 127,
        });
    }
    let kill_at = ms.map(|ms| world.now_ms().saturating_add(ms));
    world.set_tool_kill_at(kill_at);
    let result = super::run(world, command);
    let killed = world.tool_killed();
    world.set_tool_kill_at(None);
    if killed {
        return Err(ToolError {
            stdout: String::new(),
            message: String::new(),
            exit_code: TIMED_OUT,
        });
    }
    result
}

/// A tool's name without its directory and `.sh`.
fn tool_name(name: &str) -> &str {
    let name = name.rsplit('/').next().unwrap_or(name);
    name.strip_suffix(".sh").unwrap_or(name)
}

/// DURATION in ms: `None` when it is not an interval; `Some(None)` for no timeout (0, or past
/// [`MAX_MS`]).
fn parse_ms(text: &str) -> Option<Option<u64>> {
    let (number, unit) = match text.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&text[..i], c),
        _ => (text, 's'),
    };
    let scale = match unit {
        's' => 1_000.0,
        'm' => 60_000.0,
        'h' => 3_600_000.0,
        'd' => 86_400_000.0,
        _ => return None,
    };
    let well_formed = !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit() || c == '.')
        && number.chars().filter(|c| *c == '.').count() <= 1
        && number.chars().any(|c| c.is_ascii_digit());
    if !well_formed {
        return None;
    }
    let ms = number.parse::<f64>().ok()? * scale;
    if ms == 0.0 || ms > MAX_MS {
        return Some(None);
    }
    // coreutils rounds a positive interval up to its clock's resolution; here, to 1 ms.
    Some(Some(ms.ceil().max(1.0) as u64))
}

/// coreutils' usage error: the message and its hint, exit 125.
fn usage_error(message: &str) -> ToolError {
    ToolError {
        stdout: String::new(),
        message: format!("timeout: {message}\nTry 'timeout --help' for more information.\n"),
        exit_code: 125,
    }
}

#[cfg(test)]
mod tests {
    use super::parse_ms;

    #[test]
    fn durations_follow_coreutils() {
        assert_eq!(parse_ms("2"), Some(Some(2_000)));
        assert_eq!(parse_ms("1.5s"), Some(Some(1_500)));
        assert_eq!(parse_ms("0.0001"), Some(Some(1)));
        assert_eq!(parse_ms("2m"), Some(Some(120_000)));
        assert_eq!(parse_ms("1h"), Some(Some(3_600_000)));
        assert_eq!(parse_ms("0"), Some(None));
        assert_eq!(parse_ms("99999999999999d"), Some(None));
        for bad in ["", "s", "x", "1x", "-1", "1.2.3", ".", "1e3", "ms", "500ms"] {
            assert_eq!(parse_ms(bad), None, "{bad}");
        }
    }
}
