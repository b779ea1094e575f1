//! The broker's view of metadata: MetadataLoader, MetadataDelta, MetadataImage (article
//! section 5).

pub mod delta;
pub mod image;
pub mod loader;

pub use delta::MetadataDelta;
pub use image::MetadataImage;
pub use loader::MetadataLoader;
