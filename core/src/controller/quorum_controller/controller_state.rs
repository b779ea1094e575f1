//! `ControllerState`: the control managers every controller replays the committed records
//! into, all in timeline structures that revert to an in-memory snapshot together.

use crate::controller::cluster_control::ClusterControlManager;
use crate::controller::configuration_control::ConfigurationControlManager;
use crate::controller::feature_control::FeatureControlManager;
use crate::controller::replication_control::ReplicationControlManager;
use crate::timeline::Revertable;

/// Everything the controller state machine holds, in timeline structures.
#[derive(Clone, Debug, Default)]
pub struct ControllerState {
    /// FeatureControlManager
    pub features: FeatureControlManager,
    /// ClusterControlManager
    pub cluster: ClusterControlManager,
    /// ConfigurationControlManager
    pub configs: ConfigurationControlManager,
    /// ReplicationControlManager
    pub replication: ReplicationControlManager,
}

impl ControllerState {
    /// How many times the state's maps changed (their [`mod_count`]s summed): the same count
    /// twice in one controller means the same state, so its [`summary`] need not be built
    /// again.
    ///
    /// [`mod_count`]: crate::timeline::TimelineHashMap::mod_count
    /// [`summary`]: Self::summary
    pub fn mod_count(&self) -> u64 {
        self.features.levels.mod_count()
            + self.cluster.controllers.mod_count()
            + self.cluster.brokers.mod_count()
            + self.configs.configs.mod_count()
            + self.replication.topics_by_name.mod_count()
            + self.replication.topics.mod_count()
    }

    /// A canonical text of the current contents (history left out), for comparisons and views.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for (k, v) in self.features.levels.iter() {
            out.push_str(&format!("feature {k}={v}\n"));
        }
        for (id, c) in self.cluster.controllers.iter() {
            out.push_str(&format!("controller {id} {}\n", c.incarnation_id));
        }
        for (id, b) in self.cluster.brokers.iter() {
            out.push_str(&format!(
                "broker {id} epoch={} fenced={} shutdown={}\n",
                b.record.broker_epoch, b.record.fenced, b.record.in_controlled_shutdown
            ));
        }
        for ((t, n, k), v) in self.configs.configs.iter() {
            out.push_str(&format!("config {t} '{n}' {k}={v}\n"));
        }
        for (name, id) in self.replication.topics_by_name.iter() {
            out.push_str(&format!("topic {name} {id}\n"));
            if let Some(info) = self.replication.topics.get(id) {
                for p in info.parts.values() {
                    out.push_str(&format!("  {}\n", p.partition_registration_text()));
                }
            }
        }
        out
    }
}

impl Revertable for ControllerState {
    fn revert_to_snapshot(&mut self, epoch: i64) {
        self.features.revert_to_snapshot(epoch);
        self.cluster.revert_to_snapshot(epoch);
        self.configs.revert_to_snapshot(epoch);
        self.replication.revert_to_snapshot(epoch);
    }
    fn delete_snapshot(&mut self, epoch: i64, previous: Option<i64>) {
        self.features.delete_snapshot(epoch, previous);
        self.cluster.delete_snapshot(epoch, previous);
        self.configs.delete_snapshot(epoch, previous);
        self.replication.delete_snapshot(epoch, previous);
    }
    fn delete_snapshots_up_to(&mut self, epoch: i64) {
        self.features.delete_snapshots_up_to(epoch);
        self.cluster.delete_snapshots_up_to(epoch);
        self.configs.delete_snapshots_up_to(epoch);
        self.replication.delete_snapshots_up_to(epoch);
    }
}
