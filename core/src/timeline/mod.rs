//! Timeline data structures: a port of Kafka's `org.apache.kafka.timeline` package.
//!
//! The active controller applies metadata records to memory *before* the Raft quorum commits
//! them. To be able to undo uncommitted records when it loses leadership, every piece of
//! controller state lives in a timeline structure, and a [`SnapshotRegistry`] keeps an ordered
//! list of snapshot epochs (log offsets): snapshot `N` is the state after applying record `N`.
//!
//! Snapshots are copy-on-write, never full copies. When a key (or a [`TimelineObject`]'s value)
//! changes while `S` is the latest snapshot, the *old* value — or "absent" — is saved into the
//! object's tier for `S`, but only on the first change of that key in that tier. Reading as of
//! snapshot `E` returns the value saved in the earliest tier at or after `E`, or the current value
//! if no such tier saved the key.
//!
//! * Committing up to offset `C` calls [`SnapshotRegistry::delete_snapshots_up_to`]: older tiers
//!   are dropped (a deleted snapshot's saved values merge into the previous snapshot, if any).
//! * Losing leadership calls [`SnapshotRegistry::revert_to_snapshot`] with the last committed
//!   offset: current state becomes the state at that snapshot and later snapshots disappear.
//!
//! Unlike Kafka, timeline objects hold no pointer to their registry (the whole simulated world
//! stays plainly `Clone` and deterministic). Mutations take `&SnapshotRegistry`, and the
//! registry's delete and revert operations take the objects they apply to as a slice of
//! [`Revertable`]s:
//!
//! ```
//! use kraft_core::timeline::{SnapshotRegistry, TimelineHashMap, TimelineInteger};
//! let mut registry = SnapshotRegistry::new();
//! let mut topics: TimelineHashMap<String, String> = TimelineHashMap::new();
//! let mut count = TimelineInteger::new();
//! topics.put(&registry, "orders".to_string(), "id-A".to_string());
//! count.increment(&registry);
//! registry.idempotent_create_snapshot(10).unwrap();
//! topics.remove(&registry, "orders");
//! count.decrement(&registry);
//! assert_eq!(topics.get_at(&registry, "orders", 10).unwrap().map(String::as_str), Some("id-A"));
//! registry.revert_to_snapshot(10, &mut [&mut topics, &mut count]).unwrap();
//! assert_eq!(topics.to_string(), "{orders=id-A}");
//! assert_eq!(count.get(), 1);
//! ```

mod map;
mod object;
mod registry;
mod set;

pub use map::{MapTier, TimelineHashMap};
pub use object::{TimelineInteger, TimelineLong, TimelineObject};
pub use registry::{Revert, Revertable, SnapshotRegistry, TimelineError};
pub use set::TimelineHashSet;
