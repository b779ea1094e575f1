//! ConfigurationControlManager: dynamic configs by resource (cluster-wide broker defaults and
//! topic configs).

use crate::metadata::ConfigRecord;
use crate::timeline::{Revertable, SnapshotRegistry, TimelineHashMap};

/// Configs keyed by (resource type, resource name, config name).
#[derive(Clone, Debug, Default)]
pub struct ConfigurationControlManager {
    /// (resourceType, resourceName, name) to value.
    pub configs: TimelineHashMap<(i8, String, String), String>,
}

/// Kafka's name of a ConfigResource type.
pub fn resource_type_name(t: i8) -> &'static str {
    match t {
        2 => "TOPIC",
        4 => "BROKER",
        8 => "BROKER_LOGGER",
        _ => "UNKNOWN",
    }
}

impl ConfigurationControlManager {
    /// `replay(ConfigRecord)`; returns the controller.log line.
    pub fn replay(&mut self, registry: &SnapshotRegistry, r: &ConfigRecord) -> String {
        let key = (r.resource_type, r.resource_name.clone(), r.name.clone());
        let resource = format!(
            "ConfigResource(type={}, name='{}')",
            resource_type_name(r.resource_type),
            r.resource_name
        );
        match &r.value {
            Some(v) => {
                self.configs.put(registry, key, v.clone());
                format!(
                    "Replayed ConfigRecord for {resource} which set configuration {} to {v}",
                    r.name
                )
            }
            None => {
                self.configs.remove(registry, &key);
                format!(
                    "Replayed ConfigRecord for {resource} which removed configuration {}",
                    r.name
                )
            }
        }
    }

    /// The configs of one resource, sorted by name.
    pub fn configs_of(&self, resource_type: i8, resource_name: &str) -> Vec<(String, String)> {
        self.configs
            .iter()
            .filter(|((t, n, _), _)| *t == resource_type && n == resource_name)
            .map(|((_, _, k), v)| (k.clone(), v.clone()))
            .collect()
    }

    /// Remove every config of a resource (a deleted topic).
    pub fn remove_resource(&mut self, registry: &SnapshotRegistry, resource_type: i8, name: &str) {
        let keys: Vec<(i8, String, String)> = self
            .configs
            .keys()
            .filter(|(t, n, _)| *t == resource_type && n == name)
            .cloned()
            .collect();
        for k in keys {
            self.configs.remove(registry, &k);
        }
    }
}

impl Revertable for ConfigurationControlManager {
    fn revert_to_snapshot(&mut self, epoch: i64) {
        self.configs.revert_to_snapshot(epoch);
    }
    fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>) {
        self.configs.delete_snapshot(epoch, previous);
    }
    fn delete_snapshots_up_to(&mut self, epoch: i64) {
        self.configs.delete_snapshots_up_to(epoch);
    }
}
