//! What the playground's two programs share: the page (`main.rs`) and the compute worker
//! (`bin/worker.rs`) exchange `work`'s messages, and the page shows `computed`.

pub mod computed;
pub mod work;
