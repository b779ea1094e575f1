//! The broker's view of metadata: MetadataLoader, MetadataDelta, MetadataImage (article
//! section 5).

pub mod delta;
pub mod loader;
pub mod metadata_image;
pub mod shell_tree;
pub mod snapshot_generator;

pub use delta::MetadataDelta;
pub use loader::MetadataLoader;
pub use metadata_image::MetadataImage;
pub use snapshot_generator::SnapshotGenerator;
