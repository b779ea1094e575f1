//! RegisterControllerRecord (apiKey 27).

use super::broker::{Endpoint, FeatureRange};
use super::wire::{JsonObject, Writer};
use crate::common::uuid::Uuid;

/// RegisterControllerRecord v0: a controller's registration (its listeners and supported
/// features). Written atomically by the active controller, with `zk_migration_ready = false`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RegisterControllerRecord {
    /// ControllerId.
    pub controller_id: i32,
    /// IncarnationId: the id of this controller process.
    pub incarnation_id: Uuid,
    /// ZkMigrationReady: set if the ZK migration configs are present (always false in KRaft).
    pub zk_migration_ready: bool,
    /// EndPoints: the controller's listeners (Kafka's `ControllerEndpoint`).
    pub end_points: Vec<Endpoint>,
    /// Features: the supported feature ranges (Kafka's `ControllerFeature`).
    pub features: Vec<FeatureRange>,
}

impl RegisterControllerRecord {
    pub(crate) fn write_json(&self, j: &mut JsonObject) {
        j.num("controllerId", self.controller_id);
        j.uuid("incarnationId", self.incarnation_id);
        j.bool("zkMigrationReady", self.zk_migration_ready);
        j.objects(
            "endPoints",
            self.end_points.iter().map(Endpoint::json).collect(),
        );
        j.objects(
            "features",
            self.features.iter().map(FeatureRange::json).collect(),
        );
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.i32(self.controller_id);
        w.uuid(self.incarnation_id);
        w.bool(self.zk_migration_ready);
        w.compact_structs(&self.end_points, Endpoint::write);
        w.compact_structs(&self.features, FeatureRange::write);
        w.tagged_fields(Vec::new());
    }
}
