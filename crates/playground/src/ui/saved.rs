//! The work kept in this browser, on the page: saving (with `saved`'s plan), the banners that say
//! when the work is not saved, when saved work could not be opened, and that the previous scenario
//! is kept when a link replaced it; and the Recent list to go back to any kept scenario.

use std::cell::RefCell;
use std::rc::Rc;

use scenario::Scenario;
use yew::prelude::*;

use playground::saved::{self, Entry, Opening, Origin, Session, Unreadable, Unsaved};
use playground::work::{PlanRequest, Text};

use crate::browser::{self, ComputeWorker};
use crate::state::Action;
use crate::ui::dialog::Dialog;
use crate::ui::share::Writer;
use crate::ui::Store;

/// What the page says about the saved work.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    /// Why the last save failed; none once a save succeeds.
    pub unsaved: Option<Unsaved>,
    pub unreadable: Option<Rc<Unreadable>>,
    /// The scenario a link (or another load) replaced, offered back; `opened` is what replaced it.
    pub previous: Option<(Rc<Offered>, String)>,
    /// The kept entries, the most recently left first.
    pub kept: Rc<Vec<Entry>>,
}

pub enum StatusAction {
    Saved(Vec<Entry>),
    Unsaved(Unsaved),
    Previous(Option<(Rc<Offered>, String)>),
    ForgetUnreadable,
}

impl Reducible for Status {
    type Action = StatusAction;

    fn reduce(self: Rc<Self>, action: StatusAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            StatusAction::Saved(kept) => {
                next.unsaved = None;
                if *next.kept != kept {
                    next.kept = Rc::new(kept);
                }
            }
            StatusAction::Unsaved(why) => next.unsaved = Some(why),
            StatusAction::Previous(previous) => next.previous = previous,
            StatusAction::ForgetUnreadable => next.unreadable = None,
        }
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

impl Status {
    pub fn new(opening: &Opening) -> Status {
        let opened = saved::title_of(&opening.scenario);
        Status {
            unsaved: None,
            unreadable: opening.unreadable.clone().map(Rc::new),
            previous: opening.previous.clone().map(|kept| {
                (Rc::new(Offered { entry: kept.entry, back: Back::Scenario(Box::new(kept.scenario)) }), opened)
            }),
            kept: Rc::new(opening.kept.clone()),
        }
    }
}

/// A scenario offered back ("Switch back"): its entry, and what opens it.
#[derive(Clone, Debug, PartialEq)]
pub struct Offered {
    pub entry: Entry,
    pub back: Back,
}

/// What a scenario offered back opens on.
#[derive(Clone, Debug, PartialEq)]
pub enum Back {
    /// The scenario itself (as the opening read it, or as it was on screen).
    Scenario(Box<Scenario>),
    /// Its JSON as this tab saved it, read by the worker when switched to: a big group's previous
    /// assignment is only there (the page's scenario leaves it to the compute worker).
    Saved(String),
}

/// How many times a save is planned again when another tab wrote meanwhile.
const PLAN_TRIES: usize = 3;

/// This tab's session and the status, shared through a context.
#[derive(Clone)]
pub struct Keeper {
    session: Rc<RefCell<Session>>,
    pub status: UseReducerHandle<Status>,
    /// The lead compute worker, which reads saved copies and plans saves (`saved`'s logic): the
    /// page links no reader of scenario files (issue 9).
    worker: Option<ComputeWorker>,
    /// The scenario this tab saved last, as saved: a big group's previous assignment is only
    /// there (the page's scenario leaves it to the compute worker).
    last_saved: Rc<RefCell<Option<Saved>>>,
}

/// A scenario on screen (by identity) and its JSON as saved.
type Saved = (Rc<Scenario>, String);

impl PartialEq for Keeper {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.session, &other.session) && self.status == other.status
    }
}

impl Keeper {
    pub fn new(
        session: Rc<RefCell<Session>>,
        status: UseReducerHandle<Status>,
        worker: Option<ComputeWorker>,
    ) -> Keeper {
        Keeper { session, status, worker, last_saved: Rc::default() }
    }

    /// Saves the work, `scenario` written whole as `json` (`ui::share::Writer`), keeping what it
    /// replaces; says so when it cannot. The worker plans the writes over what storage holds (it
    /// reads another tab's work there); should storage change meanwhile, it plans again.
    pub fn save(&self, scenario: &Rc<Scenario>, json: &str) {
        self.plan_and_store(Rc::clone(scenario), json.to_string(), PLAN_TRIES);
    }

    fn plan_and_store(&self, scenario: Rc<Scenario>, json: String, tries: usize) {
        let Some(worker) = &self.worker else { return };
        let planned_over = || browser::stored_texts(&[saved::INDEX_KEY, saved::WORK_KEY]);
        let stored = planned_over();
        let request = PlanRequest {
            stored: stored.clone(),
            session: self.session.borrow().clone(),
            title: saved::title_of(&scenario),
            json: json.clone(),
            now: browser::now(),
            fresh_id: browser::fresh_id(),
        };
        let keeper = self.clone();
        worker.plan(request, move |planned| {
            if tries > 1 && planned_over() != stored {
                return keeper.plan_and_store(scenario, json, tries - 1);
            }
            let plan = match planned {
                Ok(plan) => plan,
                Err(why) => return keeper.status.dispatch(StatusAction::Unsaved(why)),
            };
            let (ran, refused) = browser::store(&plan.writes);
            if plan.work_write.map_or(refused.is_none(), |at| ran > at) {
                *keeper.session.borrow_mut() = plan.session;
                *keeper.last_saved.borrow_mut() = Some((scenario, json));
            }
            keeper.status.dispatch(match refused {
                Some(why) => StatusAction::Unsaved(why),
                None => StatusAction::Saved(plan.index.kept),
            });
        });
    }

    /// The next save starts a new entry (a preset, a file or a link replaced the scenario), and
    /// keeps the scenario worked on until now.
    pub fn begin(&self, origin: Origin) {
        *self.session.borrow_mut() = Session::new(browser::fresh_id(), origin, browser::now());
    }

    /// Goes back to a kept scenario: `scenario` replaces the one on screen, which is kept instead.
    fn switch_to(&self, store: &Store, entry: &Entry, scenario: Scenario) {
        self.session.borrow_mut().switch_to(entry);
        store.dispatch(Action::Load(scenario));
        self.status.dispatch(StatusAction::Previous(None));
    }

    /// The scenario on screen, offered back after a load: as this tab saved it, when it did, so
    /// that switching back brings its history back too; else as it is on screen (an edit a moment
    /// before, not saved yet: the page writes no scenario file, issue 9, so its entry gives no
    /// size or hash, which switching back does not use).
    pub fn current(&self, scenario: &Rc<Scenario>) -> Offered {
        let session = self.session.borrow();
        let saved =
            self.last_saved.borrow().as_ref().filter(|(s, _)| Rc::ptr_eq(s, scenario)).map(|(_, json)| json.clone());
        let (size, hash) = saved.as_ref().map_or((0, String::new()), |json| (json.len(), saved::hash(json)));
        Offered {
            entry: Entry {
                id: session.id.clone(),
                title: saved::title_of(scenario),
                origin: session.origin,
                opened: session.opened,
                saved: browser::now(),
                size,
                hash,
            },
            back: saved.map_or_else(|| Back::Scenario(Box::new((**scenario).clone())), Back::Saved),
        }
    }

    /// Goes back to a kept scenario from its saved JSON, read by the worker; says so when it does
    /// not open.
    fn switch_to_saved(&self, store: &Store, entry: &Entry, text: Option<String>) {
        let Some(text) = text else {
            let why = format!("“{}” could not be opened: it is no longer in this browser.", entry.title);
            return store.dispatch(Action::Banner(Some(why)));
        };
        let Some(worker) = &self.worker else { return };
        let (keeper, store, entry) = (self.clone(), store.clone(), entry.clone());
        worker.read(Text::Saved(text), move |read| match read {
            Ok(scenario) => keeper.switch_to(&store, &entry, scenario),
            Err(why) => store.dispatch(Action::Banner(Some(format!("“{}” could not be opened: {why}.", entry.title)))),
        });
    }

    /// Goes back to a scenario offered back.
    fn switch_back(&self, store: &Store, offered: &Offered) {
        match &offered.back {
            Back::Scenario(scenario) => self.switch_to(store, &offered.entry, (**scenario).clone()),
            Back::Saved(json) => self.switch_to_saved(store, &offered.entry, Some(json.clone())),
        }
    }
}

/// The tab's opening as the worker read it; without one (no worker, or it stopped first), a
/// fresh group, saying why.
pub fn opening(opened: Option<&Result<playground::work::Opened, String>>) -> playground::work::Opened {
    if let Some(Ok(opened)) = opened {
        return opened.clone();
    }
    let why = match opened {
        Some(Err(why)) => why.clone(),
        _ => "this browser starts no worker".to_string(),
    };
    playground::work::Opened {
        opening: Opening {
            scenario: Scenario::default(),
            session: Session::new(browser::fresh_id(), Origin::Own, browser::now()),
            previous: None,
            unreadable: None,
            opened_saved: false,
            kept: Vec::new(),
        },
        problem: Some(format!("The page could not open a scenario: {why}.")),
        orphans: Vec::new(),
        presets: Vec::new(),
    }
}

/// Removes kept copies the index does not list (a save cut short between its writes), as the
/// worker found them at the opening (`work::Opened::orphans`).
pub fn tidy(orphans: &[String]) {
    let _ = browser::store(&orphans.iter().map(|key| saved::Write::Remove { key: key.clone() }).collect::<Vec<_>>());
}

/// "Your work is not saved", in the sticky header: in view wherever the person is on the page.
#[function_component]
pub fn UnsavedBanner() -> Html {
    let (Some(store), Some(keeper), writer) =
        (use_context::<Store>(), use_context::<Keeper>(), use_context::<Writer>())
    else {
        return html! {};
    };
    let Some(why) = keeper.status.unsaved.clone() else { return html! {} };
    let export = Callback::from(move |_| {
        if let Some(writer) = &writer {
            crate::ui::share::export(writer, &store);
        }
    });
    html! {
        <div class="banner" role="alert" data-banner="unsaved">
            <span>{ format!("Your work is not saved: {why}. Export it as a JSON file to keep it; the page saves again as soon as it can.") }</span>
            <span class="banner-actions"><button type="button" onclick={export}>{ "Export JSON" }</button></span>
        </div>
    }
}

/// The banners about the saved work: what could not be opened, what a link replaced.
#[function_component]
pub fn SavedBanners() -> Html {
    let (Some(store), Some(keeper)) = (use_context::<Store>(), use_context::<Keeper>()) else { return html! {} };
    let downloaded = use_state(|| false);
    let status = &*keeper.status;
    let unreadable = status.unreadable.as_ref().map(|unreadable| {
        let download = {
            let (unreadable, downloaded) = (Rc::clone(unreadable), downloaded.clone());
            Callback::from(move |_| {
                browser::download("unreadable-saved-scenario.json", &unreadable.text);
                downloaded.set(true);
            })
        };
        let delete = {
            let (unreadable, keeper) = (Rc::clone(unreadable), keeper.clone());
            Callback::from(move |_| {
                // Only the very text offered for download, never what another tab wrote since.
                if browser::stored(saved::WORK_KEY).as_deref() == Some(unreadable.text.as_str()) {
                    let _ = browser::store(&[saved::Write::Remove { key: saved::WORK_KEY.into() }]);
                }
                keeper.status.dispatch(StatusAction::ForgetUnreadable);
            })
        };
        let dismiss = {
            let keeper = keeper.clone();
            Callback::from(move |_| keeper.status.dispatch(StatusAction::ForgetUnreadable))
        };
        html! {
            <div class="banner" role="alert" data-banner="unreadable">
                <span>{ format!("Your saved work could not be opened: {}. It is kept in this browser exactly as it was; your new work is saved beside it.", unreadable.why) }</span>
                <span class="banner-actions">
                    <button type="button" onclick={download}>{ "Download it" }</button>
                    if *downloaded {
                        <button type="button" class="danger" onclick={delete}>{ "Delete it from this browser" }</button>
                    }
                    <button type="button" onclick={dismiss}>{ "Dismiss" }</button>
                </span>
            </div>
        }
    });
    let previous = status.previous.as_ref().map(|(kept, opened)| {
        let switch_back = {
            let (kept, keeper, store) = (Rc::clone(kept), keeper.clone(), store.clone());
            Callback::from(move |_| keeper.switch_back(&store, &kept))
        };
        let dismiss = {
            let keeper = keeper.clone();
            Callback::from(move |_| keeper.status.dispatch(StatusAction::Previous(None)))
        };
        html! {
            <div class="banner info" role="status" data-banner="previous">
                <span>{ format!("Opened “{opened}”. Your previous scenario, “{}”, is kept.", kept.entry.title) }</span>
                <span class="banner-actions">
                    <button type="button" onclick={switch_back}>{ "Switch back" }</button>
                    <button type="button" onclick={dismiss}>{ "Dismiss" }</button>
                </span>
            </div>
        }
    });
    html! { <>{ for unreadable }{ for previous }</> }
}

/// The kept scenarios, to go back to any of them.
#[function_component]
pub fn RecentScenarios() -> Html {
    let (Some(store), Some(keeper)) = (use_context::<Store>(), use_context::<Keeper>()) else { return html! {} };
    let open = use_state(|| false);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_| open.set(!*open))
    };
    let close = {
        let open = open.clone();
        Callback::from(move |()| open.set(false))
    };
    // Work saved beside unreadable work is kept under this tab's own entry: not listed as another.
    let own = keeper.session.borrow().id.clone();
    let kept: Vec<Entry> = keeper.status.kept.iter().filter(|e| e.id != own).cloned().collect();
    let rows = kept.iter().map(|entry| {
        let pick = {
            let (entry, keeper, store, open) = (entry.clone(), keeper.clone(), store.clone(), open.clone());
            Callback::from(move |_| {
                keeper.switch_to_saved(&store, &entry, browser::stored(&saved::kept_key(&entry.id)));
                open.set(false);
            })
        };
        let origin = match entry.origin {
            Origin::Own => "your work",
            Origin::Link => "from a link",
        };
        html! {
            <li>
                <button type="button" class="recent-entry" onclick={pick}>
                    <span class="recent-title">{ entry.title.clone() }</span>
                    <span class="recent-meta">{ format!("{origin} · saved {}", browser::local_time(entry.saved)) }</span>
                </button>
            </li>
        }
    });
    html! {
        <div class="recent">
            <button type="button" onclick={toggle} aria-expanded={open.to_string()}>{ format!("Recent ({})", kept.len()) }</button>
            if *open {
                <Dialog label="Recent scenarios" on_close={close}>
                    if kept.is_empty() {
                        <p class="hint">{ "Nothing kept yet. When a link, a preset or a file replaces your scenario, it is kept here." }</p>
                    } else {
                        <ul class="recent-list">{ for rows }</ul>
                    }
                    <p class="hint">{ format!("This browser keeps the last {} scenarios you left, up to {} MB.", saved::MAX_KEPT, saved::HISTORY_BUDGET / 1_000_000) }</p>
                </Dialog>
            }
        </div>
    }
}
