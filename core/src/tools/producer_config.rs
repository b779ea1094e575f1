//! The producer's configuration as KafkaProducer reads it (ProducerConfig.java at apache/kafka
//! 1eb7644, lines 371-409 for the definitions): defaults, the `acks` values allowed, numbers
//! parsed as ConfigDef parses them, and the ConfigException texts (ConfigDef.java:1047).

use std::collections::BTreeMap;

/// The settings of the producer model ([`super::producer::Producer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProducerConfig {
    /// `bootstrap.servers`
    pub bootstrap_servers: String,
    /// `acks`: -1 (all), 0 or 1.
    pub acks: i16,
    /// `retries` (Integer.MAX_VALUE by default; the console producer sets 3).
    pub retries: u32,
    /// `retry.backoff.ms` (100).
    pub retry_backoff_ms: u64,
    /// `retry.backoff.max.ms` (1000).
    pub retry_backoff_max_ms: u64,
    /// `request.timeout.ms` (30000; the console producer sets 1500).
    pub request_timeout_ms: u64,
    /// `delivery.timeout.ms` (120000).
    pub delivery_timeout_ms: u64,
    /// `linger.ms` (5 since Kafka 4.0, KIP-1030; the console producer sets 1000).
    pub linger_ms: u64,
    /// `max.block.ms` (60000): how long `send` waits for the topic's metadata.
    pub max_block_ms: u64,
    /// `max.request.size` (1048576).
    pub max_request_size: usize,
    /// `batch.size` (16384).
    pub batch_size: usize,
}

/// `org.apache.kafka.common.config.ConfigException: Invalid value V for configuration K: M`.
fn invalid(name: &str, value: &str, message: &str) -> String {
    format!("org.apache.kafka.common.config.ConfigException: Invalid value {value} for configuration {name}: {message}")
}

/// A numeric setting: its default when absent, ConfigDef's "Not a number of type INT" when
/// it does not parse, `atLeast(0)`'s message when negative.
fn number(
    props: &BTreeMap<String, String>,
    name: &str,
    default: u64,
    long: bool,
) -> Result<u64, String> {
    let Some(v) = props.get(name) else {
        return Ok(default);
    };
    let t = v.trim();
    let parsed = if long {
        t.parse::<i64>().ok()
    } else {
        t.parse::<i32>().ok().map(i64::from)
    };
    match parsed {
        None => Err(invalid(
            name,
            v,
            if long {
                "Not a number of type LONG"
            } else {
                "Not a number of type INT"
            },
        )),
        Some(n) if n < 0 => Err(invalid(name, v, "Value must be at least 0")),
        Some(n) => Ok(n as u64),
    }
}

impl ProducerConfig {
    /// The configuration `props` give, or the ConfigException KafkaProducer's constructor
    /// throws (its `toString()`).
    pub fn from_props(props: &BTreeMap<String, String>) -> Result<ProducerConfig, String> {
        let Some(bootstrap_servers) = props.get("bootstrap.servers").cloned() else {
            return Err("org.apache.kafka.common.config.ConfigException: Missing required configuration \"bootstrap.servers\" which has no default value.".into());
        };
        let acks = match props.get("acks").map(|s| s.trim()) {
            None | Some("all") | Some("-1") => -1,
            Some("0") => 0,
            Some("1") => 1,
            Some(_) => {
                let v = &props["acks"];
                return Err(invalid("acks", v, "String must be one of: all, -1, 0, 1"));
            }
        };
        let request_timeout_ms = number(props, "request.timeout.ms", 30_000, false)?;
        let linger_ms = number(props, "linger.ms", 5, true)?;
        let mut delivery_timeout_ms = number(props, "delivery.timeout.ms", 120_000, false)?;
        // KafkaProducer.configureDeliveryTimeout: a user's value below linger + request
        // timeout is refused; the default is raised to it.
        if delivery_timeout_ms < linger_ms + request_timeout_ms {
            if props.contains_key("delivery.timeout.ms") {
                return Err("org.apache.kafka.common.config.ConfigException: delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms".into());
            }
            delivery_timeout_ms = linger_ms + request_timeout_ms;
        }
        Ok(ProducerConfig {
            bootstrap_servers,
            acks,
            retries: number(props, "retries", i32::MAX as u64, false)? as u32,
            retry_backoff_ms: number(props, "retry.backoff.ms", 100, true)?,
            retry_backoff_max_ms: number(props, "retry.backoff.max.ms", 1_000, true)?,
            request_timeout_ms,
            delivery_timeout_ms,
            linger_ms,
            max_block_ms: number(props, "max.block.ms", 60_000, true)?,
            max_request_size: number(props, "max.request.size", 1_048_576, false)? as usize,
            batch_size: number(props, "batch.size", 16_384, false)? as usize,
        })
    }

    /// The backoff before retry number `attempt` (1, 2, ...): `retry.backoff.ms` doubled per
    /// attempt up to `retry.backoff.max.ms` (ExponentialBackoff, KIP-580). Kafka adds a 20%
    /// random jitter; the playground leaves it out so a retry's time is plain to read.
    pub fn backoff_ms(&self, attempt: u32) -> u64 {
        let shift = attempt.saturating_sub(1).min(20);
        let b = self.retry_backoff_ms.saturating_mul(1 << shift);
        b.min(self.retry_backoff_max_ms.max(self.retry_backoff_ms))
    }
}

/// `key=value` words (`--producer-property`, `--producer-props`) as a map, as
/// CommandLineUtils.parseKeyValueArgs (CommandLineUtils.java:160) reads them: a word without
/// `=` is a key with an empty value.
pub fn key_values(words: &[String]) -> BTreeMap<String, String> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (w.clone(), String::new()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(kv: &[(&str, &str)]) -> BTreeMap<String, String> {
        kv.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn acks_must_be_one_of_four() {
        let e = ProducerConfig::from_props(&props(&[("bootstrap.servers", "x:1"), ("acks", "2")]));
        assert_eq!(e.unwrap_err(), "org.apache.kafka.common.config.ConfigException: Invalid value 2 for configuration acks: String must be one of: all, -1, 0, 1");
        let c = ProducerConfig::from_props(&props(&[("bootstrap.servers", "x:1")])).unwrap();
        assert_eq!(
            (c.acks, c.linger_ms, c.delivery_timeout_ms),
            (-1, 5, 120_000)
        );
        assert_eq!(
            (c.backoff_ms(1), c.backoff_ms(2), c.backoff_ms(9)),
            (100, 200, 1000)
        );
    }
}
