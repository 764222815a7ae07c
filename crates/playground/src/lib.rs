//! What the playground's two programs share: the page (`main.rs`) and the compute worker
//! (`bin/worker.rs`) exchange `work`'s messages, the page shows `computed`, and `travel` writes a
//! scenario as it leaves the page (a big group's in the worker, which holds its history).

pub mod computed;
pub mod travel;
pub mod work;
