//! What the playground's two programs share: the page (`main.rs`) and the compute worker
//! (`bin/worker.rs`) exchange `work`'s messages, the page shows `computed`, `travel` writes a
//! scenario as it leaves the page (a big group's in the worker, which holds its history), and
//! `saved`'s plans for the work kept in this browser are made where its JSON is read: in the worker.

pub mod computed;
pub mod saved;
pub mod travel;
pub mod work;
