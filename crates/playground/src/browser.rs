//! The only module that touches browser APIs: the compute worker, the URL, storage, the clipboard,
//! downloads. Every call tolerates their absence (a sandboxed iframe has no storage, an old browser
//! no clipboard).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::events::EventListener;
use playground::travel::Texts;
use playground::work::{
    Answer, Gather, ImportRequest, Job, Message, OpenRequest, Opened, PartText, PlanRequest, Prior, Queue,
    ReadScenario, Reading, Reply, Request, Share, Split, Text, Version, WalkFrame, WalkRequest,
};
use scenario::digest::{MemberDetail, MemberRequest};
use scenario::Scenario;
use wasm_bindgen::{JsCast, JsValue};

use crate::ui::panel::Unanswered;
use playground::saved::{Plan, Stored, Unsaved, Write};

/// The files Trunk builds from `bin/worker.rs` (`index.html`'s `data-type="worker"` link; Trunk names
/// them after the binary): the glue and the wasm.
const WORKER_GLUE: &str = "worker.js";
const WORKER_WASM: &str = "worker_bg.wasm";
/// The file reader Trunk builds from `bin/reader.rs`: started for each file handed to Import JSON.
const READER_SCRIPT: &str = "reader_loader.js";

/// The compute workers as the page talks to them: two on a machine of two cores or more, each
/// computing its share of the strategies (`work::Share`), else one. At most one version at the
/// workers and one waiting (`work::Queue`); each version goes to every worker, and the page gets
/// its answer once every worker's part is in (`work::Gather`).
#[derive(Clone)]
pub struct ComputeWorker(Rc<Connection>);

struct Connection {
    /// The workers, the lead first.
    workers: Vec<web_sys::Worker>,
    /// Each worker's share, in the same order.
    shares: &'static [Share],
    /// How many workers said they are listening.
    ready: Cell<usize>,
    queue: RefCell<Queue>,
    /// The parts of the version at the workers.
    gather: RefCell<Gather>,
    /// The versions the workers hold split, each its share.
    split: RefCell<Split>,
    /// A job waiting for the workers' shares of the history it is computed whole from.
    history: RefCell<Option<HistoryWait>>,
    /// The versions the workers must keep, as of the last job wanted.
    keep: RefCell<Vec<Version>>,
    listeners: RefCell<Vec<EventListener>>,
    /// Opened members waiting for their partitions.
    members: RefCell<Vec<MemberWait>>,
    /// Scenarios being written (`Request::Write`), by ticket.
    writes: RefCell<Vec<(u64, WriteWait)>>,
    /// Scenarios to be written once the other workers' parts of their history are in
    /// (`Request::Part`), by ticket.
    parts: RefCell<Vec<(u64, PartsWait)>>,
    next_ticket: Cell<u64>,
    /// Walkthrough steps asked for, waiting for the worker.
    walks: RefCell<Vec<WalkWait>>,
    /// Pastes being read for the Import dialog, by ticket.
    imports: RefCell<Vec<Waiting<u64, Reading>>>,
    /// The tab's opening, links and kept scenarios being read, saves being planned, by ticket.
    opens: RefCell<Vec<Waiting<u64, Result<Opened, String>>>>,
    reads: RefCell<Vec<Waiting<u64, Result<Scenario, String>>>>,
    plans: RefCell<Vec<Waiting<u64, Result<Plan, Unsaved>>>>,
    /// Where answers go and failures are told, once the app listens ([`ComputeWorker::listen`]).
    listener: RefCell<Listener>,
    /// Messages (writes, members, walks, pastes) asked for before every worker was listening (a
    /// worker would lose them), with the worker each goes to, sent once all are; `None` from then
    /// on.
    early: RefCell<Option<Vec<(usize, Bytes)>>>,
}

/// Where the workers' answers go, and why they stopped answering: the app's, once it listens; until
/// then (the workers start before the app, to open the tab) a failure is kept for it.
#[derive(Default)]
struct Listener {
    answer: Option<Rc<dyn Fn(Answer)>>,
    failed: Option<Rc<dyn Fn(String)>>,
    failure: Option<String>,
}

/// A message's bytes as it crosses (`work::Message`).
type Bytes = Vec<u8>;

/// A job computed whole from a version the workers hold split, waiting for their shares of it
/// (`work::Split`).
struct HistoryWait {
    ticket: u64,
    version: Version,
    jobs: Vec<Job>,
    parts: Vec<PartText>,
    /// How many workers answered, with their share or without.
    replies: usize,
}

/// A scenario to write: the version whose settled assignment is its history, the scenario, and
/// the parts of that assignment in so far.
type PartsWait = (Version, Rc<Scenario>, Vec<PartText>);

/// Where a scenario written by the worker goes (`None`: it no longer keeps that history).
type WriteWait = Box<dyn FnOnce(Option<Texts>)>;

/// A member asked for, and where its partitions go.
type MemberWait = Waiting<(Version, MemberRequest), Result<Option<MemberDetail>, Unanswered>>;

/// A walkthrough step asked for, and where it goes.
type WalkWait = Waiting<WalkRequest, Result<WalkFrame, String>>;

/// A question asked of the worker, and where its answer goes.
type Waiting<Question, Answer> = (Question, Box<dyn FnOnce(Answer)>);

/// Hands `answer` to every caller waiting for `question`; the others keep waiting.
fn give_waiting<Q: PartialEq, A: Clone>(waiting: &RefCell<Vec<Waiting<Q, A>>>, question: &Q, answer: A) {
    let (answered, rest): (Vec<_>, Vec<_>) = waiting.take().into_iter().partition(|(q, _)| q == question);
    *waiting.borrow_mut() = rest;
    answered.into_iter().for_each(|(_, give)| give(answer.clone()));
}

/// Hands `answer` to the caller waiting for `ticket` (the answer is not cloned: one caller each).
fn give_once<A>(waiting: &RefCell<Vec<Waiting<u64, A>>>, ticket: u64, answer: A) {
    let at = waiting.borrow().iter().position(|(t, _)| *t == ticket);
    if let Some(at) = at {
        let (_, give) = waiting.borrow_mut().remove(at);
        give(answer);
    }
}

/// How many compute workers to run: one per core, up to one per share of the strategies. On one
/// core a second worker would only take turns with the first, each holding its own copy of the
/// group.
fn fleet_size() -> usize {
    let cores = window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    if cores >= 2.0 {
        2
    } else {
        1
    }
}

impl PartialEq for ComputeWorker {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl ComputeWorker {
    /// Starts the workers, before the app: the lead opens the tab ([`ComputeWorker::open`]).
    /// `None` when the browser starts no worker at all.
    pub fn start() -> Option<ComputeWorker> {
        let base = page_base();
        let directory = &base[..base.rfind('/').map_or(0, |i| i + 1)];
        let shares = Share::of_fleet(fleet_size());
        let started: Result<Vec<web_sys::Worker>, JsValue> =
            shares.iter().map(|share| compute_worker(directory, share.name())).collect();
        let workers = started.ok()?;
        give_wasm(&workers, directory);
        let connection = Rc::new(Connection {
            queue: RefCell::new(if workers.len() > 1 { Queue::serial() } else { Queue::loading() }),
            workers,
            shares,
            ready: Cell::new(0),
            gather: RefCell::default(),
            split: RefCell::default(),
            history: RefCell::default(),
            keep: RefCell::default(),
            listeners: RefCell::default(),
            members: RefCell::default(),
            writes: RefCell::default(),
            parts: RefCell::default(),
            next_ticket: Cell::new(0),
            walks: RefCell::default(),
            imports: RefCell::default(),
            opens: RefCell::default(),
            reads: RefCell::default(),
            plans: RefCell::default(),
            listener: RefCell::default(),
            early: RefCell::new(Some(Vec::new())),
        });
        let mut listeners = Vec::new();
        for (index, worker) in connection.workers.iter().enumerate() {
            let weak = Rc::downgrade(&connection);
            listeners.push(EventListener::new(worker, "message", move |event| {
                let Some(connection) = weak.upgrade() else { return };
                let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else { return };
                connection.receive(index, event);
            }));
            let weak = Rc::downgrade(&connection);
            listeners.push(EventListener::new(worker, "error", move |event| {
                let Some(connection) = weak.upgrade() else { return };
                let message = event.dyn_ref::<web_sys::ErrorEvent>().map(|e| e.message()).unwrap_or_default();
                connection.stopped(format!("the compute worker stopped ({message})"));
            }));
        }
        connection.listeners.borrow_mut().extend(listeners);
        Some(ComputeWorker(connection))
    }

    /// The app listens: `answer` receives the answers, `failed` why the workers stopped answering
    /// (at once, if they already did).
    pub fn listen(&self, answer: impl Fn(Answer) + 'static, failed: impl Fn(String) + 'static) {
        let failure = {
            let mut listener = self.0.listener.borrow_mut();
            listener.answer = Some(Rc::new(answer));
            let failed: Rc<dyn Fn(String)> = Rc::new(failed);
            listener.failed = Some(Rc::clone(&failed));
            listener.failure.take().map(|why| (failed, why))
        };
        if let Some((failed, why)) = failure {
            failed(why);
        }
    }

    /// Asks the lead to open the tab (`work::OpenRequest`); `give` gets the opening, or why the
    /// workers could not give one.
    pub fn open(&self, request: OpenRequest, give: impl FnOnce(Result<Opened, String>) + 'static) {
        let ticket = self.0.ticket();
        self.0.opens.borrow_mut().push((ticket, Box::new(give)));
        self.0.post(0, &Request::Open { ticket, request });
    }

    /// Asks the lead to read a scenario's text (a link pasted, a kept copy); `give` gets the
    /// scenario, or why it does not open.
    pub fn read(&self, text: Text, give: impl FnOnce(Result<Scenario, String>) + 'static) {
        let ticket = self.0.ticket();
        self.0.reads.borrow_mut().push((ticket, Box::new(give)));
        self.0.post(0, &Request::Read { ticket, text });
    }

    /// Asks the lead to plan a save (`work::PlanRequest`); `give` gets the writes, or why not.
    pub fn plan(&self, request: PlanRequest, give: impl FnOnce(Result<Plan, Unsaved>) + 'static) {
        let ticket = self.0.ticket();
        self.0.plans.borrow_mut().push((ticket, Box::new(give)));
        self.0.post(0, &Request::Plan { ticket, request: Box::new(request) });
    }

    /// The page wants the last of `jobs` computed (and the workers to keep `keep`): sent now if the
    /// workers are idle, else they wait, replacing whatever waited.
    pub fn want(&self, jobs: Vec<Job>, keep: Vec<Version>) {
        let connection = &self.0;
        *connection.keep.borrow_mut() = keep;
        let jobs = connection.queue.borrow_mut().push(jobs);
        if let Some(jobs) = jobs {
            connection.send(jobs);
        }
    }

    /// Asks for one member's partitions in a panel of `version` (a summarised group's, opened by
    /// the user), of the worker that computes that panel; `give` gets them, or
    /// [`Unanswered::NotHeld`] when `version` is not the last the worker computed (it keeps that
    /// one's report only) and `again`, its job, cannot be computed anew (its previous assignment
    /// is no longer kept).
    pub fn member(
        &self,
        version: Version,
        request: MemberRequest,
        again: Option<Job>,
        give: impl FnOnce(Result<Option<MemberDetail>, Unanswered>) + 'static,
    ) {
        let worker = Share::answering(self.0.shares, request.panel);
        let member = Request::Member { version, request: request.clone(), again };
        self.0.members.borrow_mut().push(((version, request), Box::new(give)));
        self.0.post(worker, &member);
    }

    /// Asks for a step of a walkthrough of `scenario` (the scenario of `request.version`); `give`
    /// gets it, or why there is none.
    pub fn walk(
        &self,
        request: WalkRequest,
        scenario: Rc<Scenario>,
        give: impl FnOnce(Result<WalkFrame, String>) + 'static,
    ) {
        self.0.walks.borrow_mut().push((request.clone(), Box::new(give)));
        self.0.post(0, &Request::Walk { request, scenario });
    }
}

/// A compute worker waiting for its wasm (`give_wasm`), from a script this page writes: a `blob:`
/// URL, of the page's origin wherever the page is. Where the browser refuses a worker from the
/// page's address — a sandboxed iframe without `allow-same-origin` (an embed) has an opaque origin,
/// and a worker's script must be of the page's origin — a blob's script is still its own; it loads
/// the worker's glue from this directory as any script may load another site's (the server must
/// allow CORS for the wasm, as it must for the page's own in an embed).
fn compute_worker(directory: &str, name: &str) -> Result<web_sys::Worker, JsValue> {
    // JSON strings are JavaScript string literals.
    let path = JsValue::from_str(&format!("{directory}{WORKER_GLUE}"));
    let glue = web_sys::js_sys::JSON::stringify(&path).ok().and_then(|s| s.as_string()).unwrap_or_default();
    // The first message says where the wasm comes from: its URL, for the worker to compile it and
    // hand the module on through the ports that come with it (the page's other workers'), or
    // `null` with the one port it will come through (a module, or the URL where it could not be
    // compiled). The worker's own listener (`bin/worker.rs`) replaces this one as it starts. A
    // start that fails (the wasm not fetched or not valid) is thrown again from a task of its own:
    // a rejected promise reaches the page as nothing, an uncaught error as the worker's `error`
    // event, which ends the opening's wait with why (`Connection::stopped`), not "Opening…" for ever.
    let script = format!(
        "importScripts({glue});\
         onmessage=(e)=>{{onmessage=null;\
         const start=(wasm)=>wasm_bindgen({{module_or_path:wasm}}).catch((f)=>setTimeout(()=>{{throw f;}}));\
         if(e.data===null){{e.ports[0].onmessage=(m)=>start(m.data);return;}}\
         const hand=(wasm)=>{{e.ports.forEach((p)=>p.postMessage(wasm));start(wasm);}};\
         WebAssembly.compileStreaming(fetch(e.data)).then(hand,()=>hand(e.data));}};"
    );
    let blob_options = web_sys::BlobPropertyBag::new();
    blob_options.set_type("text/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&js_sys_array(&script), &blob_options)?;
    let options = web_sys::WorkerOptions::new();
    options.set_name(name);
    // Not revoked: the worker reads it after this returns, and it is a few bytes.
    web_sys::Worker::new_with_options(&web_sys::Url::create_object_url_with_blob(&blob)?, &options)
}

/// Gives the compute workers their wasm: the lead fetches and compiles it, and hands the module to
/// the others through a `MessageChannel` each, off the page's thread. V8 already shared the
/// compiled code between workers, but each fetched and read the 1.8 MB itself, beside the
/// opening's first frames (issue 9: a second download, and some 14 ms of the workers' CPU of the
/// 55 their start took). Compiled on the page's thread instead, the module waited 700 ms for the
/// opening's frames to let its bytes in.
fn give_wasm(workers: &[web_sys::Worker], directory: &str) {
    use web_sys::js_sys::Array;
    let Some((lead, others)) = workers.split_first() else { return };
    let url = JsValue::from_str(&format!("{directory}{WORKER_WASM}"));
    let ports = Array::new();
    for other in others {
        let _ = match web_sys::MessageChannel::new() {
            Ok(channel) => {
                ports.push(&channel.port1());
                other.post_message_with_transfer(&JsValue::NULL, &Array::of1(&channel.port2()))
            }
            // It compiles its own.
            Err(_) => other.post_message(&url),
        };
    }
    let _ = lead.post_message_with_transfer(&url, &ports);
}

impl ComputeWorker {
    /// Asks the workers to write `scenario` with its previous assignment where `prior` says
    /// (`travel`): the lead writes it, with the other workers' shares of a settled assignment
    /// (`Request::Part`); `give` gets the texts, or `None` when the workers no longer keep that
    /// settled assignment. Answered in turn with the workers' other work, never on the page's
    /// thread.
    pub fn write(&self, prior: Prior, scenario: Rc<Scenario>, give: impl FnOnce(Option<Texts>) + 'static) {
        let connection = &self.0;
        let ticket = connection.ticket();
        connection.writes.borrow_mut().push((ticket, Box::new(give)));
        match prior {
            Prior::Settled(version) if connection.workers.len() > 1 => {
                connection.parts.borrow_mut().push((ticket, (version, scenario, Vec::new())));
                for worker in 1..connection.workers.len() {
                    connection.post(worker, &Request::Part { ticket, prior: version });
                }
            }
            _ => connection.post(0, &Request::Write { ticket, prior, scenario, parts: Vec::new() }),
        }
    }

    /// Asks the worker to read a paste for the Import dialog; `give` gets the reading.
    pub fn import(&self, request: ImportRequest, give: impl FnOnce(Reading) + 'static) {
        let connection = &self.0;
        let ticket = connection.ticket();
        connection.imports.borrow_mut().push((ticket, Box::new(give)));
        connection.post(0, &Request::Import { ticket, request });
    }
}

/// Opens a file handed to Import JSON in the file reader (`bin/reader.rs`, `work::open_file`), a
/// worker started for it and stopped once it answers: `give` gets the scenario, or why the file
/// does not open. It says it listens before it is given the text (it would lose it before).
pub fn open_file(text: String, give: impl FnOnce(Result<Scenario, String>) + 'static) {
    let base = page_base();
    let directory = &base[..base.rfind('/').map_or(0, |i| i + 1)];
    let Ok(reader) = web_sys::Worker::new(&format!("{directory}{READER_SCRIPT}")) else {
        return give(Err("the file reader did not start".into()));
    };
    let text = RefCell::new(Some(text));
    let give = Rc::new(RefCell::new(Some(give)));
    let answered = Rc::clone(&give);
    let replies = reader.clone();
    let on_message =
        wasm_bindgen::closure::Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            if let Some(text) = text.take() {
                // The reader listens: the file goes now.
                let _ = replies.post_message(&JsValue::from_str(&text));
                return;
            }
            replies.terminate();
            let reply = event.data().dyn_into::<web_sys::js_sys::Uint8Array>().map(|b| b.to_vec()).unwrap_or_default();
            let opened = ReadScenario::decode(&reply)
                .map_err(|e| format!("the file reader's answer could not be read: {e}"))
                .and_then(ReadScenario::into_result);
            if let Some(give) = answered.take() {
                give(opened);
            }
        });
    let failed = reader.clone();
    let on_error =
        wasm_bindgen::closure::Closure::<dyn Fn(web_sys::ErrorEvent)>::new(move |event: web_sys::ErrorEvent| {
            failed.terminate();
            if let Some(give) = give.take() {
                give(Err(format!("the file reader stopped ({})", event.message())));
            }
        });
    reader.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    reader.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    // Held by the reader's handlers until it is stopped; a few bytes per file opened.
    on_message.forget();
    on_error.forget();
}

/// How long work left for an idle moment waits at most (`requestIdleCallback`'s `timeout`).
const IDLE_WAIT_MS: f64 = 2_000.0;

/// Runs `work` when the page's thread is idle (`requestIdleCallback`), so that what can wait (the
/// URL, the saved work) never delays a frame; after a zero timeout where the browser has no idle
/// callbacks (Safari).
pub fn when_idle(work: impl FnOnce() + 'static) {
    when_idle_within(IDLE_WAIT_MS, work)
}

/// [`when_idle`], waiting no longer than `wait_ms` for an idle moment.
pub fn when_idle_within(wait_ms: f64, work: impl FnOnce() + 'static) {
    use web_sys::js_sys::{Function, Object, Reflect};
    let Some(w) = window() else { return work() };
    let callback = wasm_bindgen::closure::Closure::once_into_js(work);
    let idle =
        Reflect::get(&w, &JsValue::from_str("requestIdleCallback")).ok().and_then(|f| f.dyn_into::<Function>().ok());
    let options = Object::new();
    let _ = Reflect::set(&options, &JsValue::from_str("timeout"), &JsValue::from_f64(wait_ms));
    let asked = idle.is_some_and(|idle| idle.call2(&w, &callback, &options).is_ok());
    if !asked {
        let _ = w.set_timeout_with_callback(callback.unchecked_ref());
    }
}

/// A User Timing mark (`performance.mark`), where the browser has them.
fn mark(name: &str) {
    if let Some(clock) = window().and_then(|w| w.performance()) {
        let _ = clock.mark(name);
    }
}

/// A User Timing measure between two marks: only the last of each name is kept.
fn measure(name: &str, start: &str, end: &str) {
    if let Some(clock) = window().and_then(|w| w.performance()) {
        clock.clear_measures_with_measure_name(name);
        let _ = clock.measure_with_start_mark_and_end_mark(name, start, end);
    }
}

/// Drops the marks, once measured (the timeline keeps no more than the last measures).
fn clear_marks() {
    if let Some(clock) = window().and_then(|w| w.performance()) {
        clock.clear_marks();
    }
}

impl Connection {
    /// Sends `jobs` to every worker: to compute, or only to settle on the way to the version
    /// wanted (`Queue::answering`); first, when they are computed whole from a version the workers
    /// hold split, the workers' shares of it are gathered.
    fn send(&self, jobs: Vec<Job>) {
        let needs = self.split.borrow().needs(&jobs);
        if let Some(version) = needs {
            let ticket = self.ticket();
            *self.history.borrow_mut() = Some(HistoryWait { ticket, version, jobs, parts: Vec::new(), replies: 0 });
            (0..self.workers.len()).for_each(|worker| self.post(worker, &Request::Part { ticket, prior: version }));
            return;
        }
        self.send_with(jobs, None);
    }

    fn send_with(&self, jobs: Vec<Job>, history: Option<(Version, Vec<PartText>)>) {
        let Some(version) = jobs.last().map(|j| j.version) else { return };
        self.split.borrow_mut().sent(&jobs, self.workers.len());
        let keep = self.keep.borrow().clone();
        let request = if self.queue.borrow().answering() {
            Request::Compute { jobs, keep, history }
        } else {
            Request::Settle { jobs, keep, history }
        };
        match request.encode() {
            Ok(message) => {
                self.gather.borrow_mut().expect(version, self.workers.len());
                (0..self.workers.len()).for_each(|worker| self.post_now(worker, &message));
            }
            // Nothing was sent: the workers are idle again.
            Err(_) => {
                let next = self.queue.borrow_mut().done();
                if let Some(jobs) = next {
                    self.send(jobs);
                }
            }
        }
    }

    /// Posts `request` to worker `worker`: now if every worker is listening, else once they are.
    fn post(&self, worker: usize, request: &Request) {
        let Ok(message) = request.encode() else { return };
        match self.early.borrow_mut().as_mut() {
            Some(early) => early.push((worker, message)),
            None => self.post_now(worker, &message),
        }
    }

    /// Posts a message's bytes: a copy for each worker, handed over (transferred) whole.
    fn post_now(&self, worker: usize, message: &[u8]) {
        if let Some(worker) = self.workers.get(worker) {
            let bytes = web_sys::js_sys::Uint8Array::from(message);
            let _ = worker.post_message_with_transfer(&bytes, &web_sys::js_sys::Array::of1(&bytes.buffer()));
        }
    }

    fn ticket(&self) -> u64 {
        let ticket = self.next_ticket.get();
        self.next_ticket.set(ticket + 1);
        ticket
    }

    /// The workers stopped: the app is told (or, before it listens, will be), and whatever waits
    /// for the opening, a read or a plan hears why.
    fn stopped(&self, why: String) {
        self.tell_failure(format!("The results cannot be computed: {why}."));
        self.unanswered(&why);
    }

    /// Tells the app why the workers failed it, or keeps it until the app listens.
    fn tell_failure(&self, told: String) {
        let failed = self.listener.borrow().failed.clone();
        match failed {
            Some(failed) => failed(told),
            None => self.listener.borrow_mut().failure = Some(told),
        }
    }

    /// Whatever waits for the opening, a read or a plan will not be answered: it hears why (the
    /// tab opens without the worker's reading rather than waiting for ever).
    fn unanswered(&self, why: &str) {
        self.opens.take().into_iter().for_each(|(_, give)| give(Err(why.to_string())));
        self.reads.take().into_iter().for_each(|(_, give)| give(Err(why.to_string())));
        self.plans.take().into_iter().for_each(|(_, give)| give(Err(Unsaved::NotWritten(why.to_string()))));
    }

    /// Worker `worker`'s message.
    fn receive(&self, worker: usize, event: &web_sys::MessageEvent) {
        let answer = self.listener.borrow().answer.clone();
        mark("answer:received");
        let bytes = event.data().dyn_into::<web_sys::js_sys::Uint8Array>().map(|b| b.to_vec()).unwrap_or_default();
        let reply = Reply::decode(&bytes);
        mark("answer:decoded");
        match reply {
            Ok(Reply::Ready) => {
                // The queue waits until every worker listens.
                self.ready.set(self.ready.get() + 1);
                if self.ready.get() == self.workers.len() {
                    for (worker, message) in self.early.take().unwrap_or_default() {
                        self.post_now(worker, &message);
                    }
                    self.next();
                }
            }
            Ok(Reply::Answer(part)) => {
                let Some(whole) = self.gather.borrow_mut().add(worker, *part) else { return };
                if self.workers.len() > 1 {
                    // Before anything builds on it: the generation over every worker's share.
                    let generation = Request::Generation { version: whole.version, generation: whole.generation };
                    (0..self.workers.len()).for_each(|worker| self.post(worker, &generation));
                }
                let answered = self.queue.borrow().answering();
                // The workers take what waits before the page paints this answer.
                self.next();
                if let (true, Some(answer)) = (answered, &answer) {
                    answer(whole);
                    mark("answer:handled");
                    // For the performance script: what an answer costs the page's thread.
                    measure("answer:decode", "answer:received", "answer:decoded");
                    measure("answer:handle", "answer:decoded", "answer:handled");
                }
            }
            // Not the queue's business: a member is answered between computations.
            Ok(Reply::Member { version, request, detail, current }) => {
                let detail = if current { Ok(detail) } else { Err(Unanswered::NotHeld) };
                give_waiting(&self.members, &(version, request), detail);
            }
            // Nor is a scenario written: it is no computation.
            Ok(Reply::Written { ticket, texts }) => self.written(ticket, texts),
            Ok(Reply::Part { ticket, part }) => self.part(ticket, part),
            // Nor is a walkthrough's step.
            Ok(Reply::Walk { request, frame }) => give_waiting(&self.walks, &request, frame),
            // Nor is a paste read.
            Ok(Reply::Imported { ticket, reading }) => give_waiting(&self.imports, &ticket, *reading),
            // Nor the tab's opening, a scenario's text read or a save planned.
            Ok(Reply::Opened { ticket, opened }) => give_once(&self.opens, ticket, Ok(*opened)),
            Ok(Reply::Read { ticket, scenario }) => give_once(&self.reads, ticket, scenario.into_result()),
            Ok(Reply::Planned { ticket, plan }) => give_once(&self.plans, ticket, plan.map(|plan| *plan)),
            Ok(Reply::Unreadable(why)) => {
                self.unanswered(&format!("the compute worker could not read a request ({why})"));
                self.tell_failure(format!("the compute worker could not read a request: {why}"))
            }
            Err(why) => {
                self.unanswered(&format!("the compute worker's answer could not be read ({why})"));
                self.tell_failure(format!("the compute worker's answer could not be read: {why}"))
            }
        }
        clear_marks();
    }

    /// The workers are idle: what waits goes.
    fn next(&self) {
        let next = self.queue.borrow_mut().done();
        if let Some(jobs) = next {
            self.send(jobs);
        }
    }

    /// A scenario written, for whoever waits for `ticket`.
    fn written(&self, ticket: u64, texts: Option<Texts>) {
        let waiting = self.writes.borrow().iter().position(|(t, _)| *t == ticket);
        if let Some(at) = waiting {
            let (_, give) = self.writes.borrow_mut().remove(at);
            give(texts);
        }
    }

    /// A worker's share of a history: for the job waiting for it, or to write.
    fn part(&self, ticket: u64, part: Option<PartText>) {
        let complete = {
            let mut history = self.history.borrow_mut();
            match history.as_mut().filter(|h| h.ticket == ticket) {
                Some(wait) => {
                    wait.parts.extend(part);
                    wait.replies += 1;
                    wait.replies == self.workers.len()
                }
                None => return self.write_part(ticket, part),
            }
        };
        if complete {
            if let Some(HistoryWait { version, jobs, parts, .. }) = self.history.take() {
                self.send_with(jobs, Some((version, parts)));
            }
        }
    }

    /// Another worker's share of a history to write: once all are in, the lead writes.
    fn write_part(&self, ticket: u64, part: Option<PartText>) {
        let Some(at) = self.parts.borrow().iter().position(|(t, _)| *t == ticket) else { return };
        let Some(part) = part else {
            // That worker no longer keeps it: nothing is written without its history.
            self.parts.borrow_mut().remove(at);
            return self.written(ticket, None);
        };
        let complete = {
            let mut parts = self.parts.borrow_mut();
            parts[at].1 .2.push(part);
            parts[at].1 .2.len() + 1 == self.workers.len()
        };
        if complete {
            let (_, (prior, scenario, parts)) = self.parts.borrow_mut().remove(at);
            self.post(0, &Request::Write { ticket, prior: Prior::Settled(prior), scenario, parts });
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.workers.iter().for_each(web_sys::Worker::terminate);
    }
}

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The page's address without query or fragment: the base of share links.
pub fn page_base() -> String {
    window()
        .and_then(|w| {
            let location = w.location();
            Some(format!("{}{}", location.origin().ok()?, location.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// The URL fragment without `#`.
pub fn fragment() -> String {
    window().and_then(|w| w.location().hash().ok()).map(|h| h.trim_start_matches('#').to_string()).unwrap_or_default()
}

/// Whether the focus is on `node` or within it.
pub fn focus_within(node: &web_sys::Node) -> bool {
    let focused = window().and_then(|w| w.document()).and_then(|d| d.active_element());
    focused.is_some_and(|focused| node.contains(Some(&focused)))
}

/// Whether the page was opened as an embed (`?embed`).
pub fn is_embed() -> bool {
    window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| q.trim_start_matches('?').split('&').any(|p| p == "embed" || p.starts_with("embed=")))
}

/// Writes the fragment without adding a history entry.
pub fn replace_fragment(fragment: &str) {
    let Some(w) = window() else { return };
    let Ok(history) = w.history() else { return };
    let search = w.location().search().unwrap_or_default();
    let url = format!("{}{search}#{fragment}", page_base());
    let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
}

/// Local storage, when the page may use it: a sandboxed iframe throws on the mere access.
fn storage() -> Option<web_sys::Storage> {
    window()?.local_storage().ok().flatten()
}

/// The text stored under `key`, if storage is available and holds one.
pub fn stored(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// What storage holds under the playground's keys (`saved::is_ours`), for the worker to read.
pub fn stored_site() -> Stored {
    let Some(storage) = storage() else { return Stored::default() };
    let keys = (0..storage.length().unwrap_or(0)).filter_map(|i| storage.key(i).ok().flatten());
    Stored(
        keys.filter(|key| playground::saved::is_ours(key))
            .filter_map(|key| Some((key.clone(), storage.get_item(&key).ok().flatten()?)))
            .collect(),
    )
}

/// What storage holds under `keys`.
pub fn stored_texts(keys: &[&str]) -> Stored {
    Stored(keys.iter().filter_map(|key| Some((key.to_string(), stored(key)?))).collect())
}

/// Runs `writes` in order, stopping at the first the browser refuses: how many ran, and why the
/// rest did not.
pub fn store(writes: &[Write]) -> (usize, Option<Unsaved>) {
    let Some(storage) = storage() else { return (0, Some(Unsaved::Unavailable)) };
    for (done, write) in writes.iter().enumerate() {
        let result = match write {
            Write::Set { key, value } => storage.set_item(key, value).map_err(|e| refusal(&e, value.len())),
            Write::Remove { key } => storage.remove_item(key).map_err(|e| refusal(&e, 0)),
        };
        if let Err(why) = result {
            return (done, Some(why));
        }
    }
    (writes.len(), None)
}

/// What a storage exception means, by its `DOMException` name.
fn refusal(error: &JsValue, needed: usize) -> Unsaved {
    let field =
        |name: &str| web_sys::js_sys::Reflect::get(error, &JsValue::from_str(name)).ok().and_then(|v| v.as_string());
    match field("name").as_deref() {
        // Firefox's older name for the same.
        Some("QuotaExceededError" | "NS_ERROR_DOM_QUOTA_REACHED") => Unsaved::Full { needed },
        Some("SecurityError") => Unsaved::Unavailable,
        name => {
            Unsaved::Refused(field("message").or(name.map(String::from)).unwrap_or_else(|| "no reason given".into()))
        }
    }
}

/// Milliseconds since the epoch.
pub fn now() -> f64 {
    web_sys::js_sys::Date::now()
}

/// A new id for a history entry: the time and a random part, so tabs never pick the same.
pub fn fresh_id() -> String {
    format!("{:x}{:06x}", now() as u64, (web_sys::js_sys::Math::random() * f64::from(1 << 24)) as u32)
}

/// A time as the reader's browser writes dates: "1 Dec 2026, 09:42".
pub fn local_time(ms: f64) -> String {
    let date = web_sys::js_sys::Date::new(&JsValue::from_f64(ms));
    let options = web_sys::js_sys::Object::new();
    for (key, value) in [("dateStyle", "medium"), ("timeStyle", "short")] {
        let _ = web_sys::js_sys::Reflect::set(&options, &JsValue::from_str(key), &JsValue::from_str(value));
    }
    date.to_locale_string("default", &options).as_string().unwrap_or_default()
}

/// Copies to the clipboard where the page may (a secure context); false where it may not.
pub fn copy_text(text: &str) -> bool {
    let Some(navigator) = window().map(|w| w.navigator()) else { return false };
    // `navigator.clipboard` is undefined outside secure contexts: calling it would throw.
    let has_clipboard = web_sys::js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if has_clipboard {
        let _ = navigator.clipboard().write_text(text);
    }
    has_clipboard
}

/// Offers `contents` as a file download.
pub fn download(name: &str, contents: &str) {
    let Some(document) = window().and_then(|w| w.document()) else { return };
    let parts = js_sys_array(contents);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(anchor) = document.create_element("a") {
        let _ = anchor.set_attribute("href", &url);
        let _ = anchor.set_attribute("download", name);
        if let Ok(anchor) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(anchor) {
            anchor.click();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

fn js_sys_array(text: &str) -> JsValue {
    let array = web_sys::js_sys::Array::new();
    array.push(&JsValue::from_str(text));
    array.into()
}
