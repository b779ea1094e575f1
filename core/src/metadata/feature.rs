//! FeatureLevelRecord (apiKey 12).

use super::wire::{JsonObject, Writer};

/// FeatureLevelRecord v0: the finalized level of one feature (`metadata.version`,
/// `kraft.version`, `group.version`, ...). Bootstrap writes metadata.version first, then the
/// others sorted by name. Its version can never advance beyond 0.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FeatureLevelRecord {
    /// Name: the feature name.
    pub name: String,
    /// FeatureLevel (int16): the finalized level; 0 means not supported.
    pub feature_level: i16,
}

impl FeatureLevelRecord {
    pub(crate) fn write_json(&self, j: &mut JsonObject) {
        j.str("name", &self.name);
        j.num("featureLevel", self.feature_level);
    }

    pub(crate) fn write(&self, w: &mut Writer) {
        w.compact_string(&self.name);
        w.i16(self.feature_level);
        w.tagged_fields(Vec::new());
    }
}
