//! The work kept in this browser, on the page: saving (with `saved`'s plan), the banners that say
//! when the work is not saved, when saved work could not be opened, and that the previous scenario
//! is kept when a link replaced it; and the Recent list to go back to any kept scenario.

use std::cell::RefCell;
use std::rc::Rc;

use scenario::Scenario;
use yew::prelude::*;

use crate::browser;
use crate::saved::{self, Entry, Kept, Opening, Origin, Session, Unreadable, Unsaved};
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
    pub previous: Option<(Rc<Kept>, String)>,
    /// The kept entries, the most recently left first.
    pub kept: Rc<Vec<Entry>>,
}

pub enum StatusAction {
    Saved(Vec<Entry>),
    Unsaved(Unsaved),
    Previous(Option<(Rc<Kept>, String)>),
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
            previous: opening.previous.clone().map(|kept| (Rc::new(kept), opened)),
            kept: Rc::new(opening.kept.clone()),
        }
    }
}

/// This tab's session and the status, shared through a context.
#[derive(Clone)]
pub struct Keeper {
    session: Rc<RefCell<Session>>,
    pub status: UseReducerHandle<Status>,
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
    pub fn new(session: Rc<RefCell<Session>>, status: UseReducerHandle<Status>) -> Keeper {
        Keeper { session, status, last_saved: Rc::default() }
    }

    /// Saves the work, `scenario` written whole as `json` (`ui::share::Writer`), keeping what it
    /// replaces; says so when it cannot.
    pub fn save(&self, scenario: &Rc<Scenario>, json: &str) {
        let session = self.session.borrow().clone();
        let planned = saved::plan_save(&browser::stored, &session, scenario, json, browser::now(), browser::fresh_id());
        let plan = match planned {
            Ok(plan) => plan,
            Err(why) => return self.status.dispatch(StatusAction::Unsaved(why)),
        };
        let (ran, refused) = browser::store(&plan.writes);
        if plan.work_write.map_or(refused.is_none(), |at| ran > at) {
            *self.session.borrow_mut() = plan.session;
            *self.last_saved.borrow_mut() = Some((Rc::clone(scenario), json.to_string()));
        }
        self.status.dispatch(match refused {
            Some(why) => StatusAction::Unsaved(why),
            None => StatusAction::Saved(plan.index.kept),
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

    /// The scenario on screen, as a kept entry would describe it (for the banner after a load):
    /// as this tab saved it, when it did, so that switching back brings its history back too.
    /// Not saved yet (an edit a moment before), it is measured as it crosses to the worker: the
    /// page writes no scenario file (issue 9).
    pub fn current(&self, scenario: &Rc<Scenario>) -> Kept {
        let session = self.session.borrow();
        let saved = self
            .last_saved
            .borrow()
            .as_ref()
            .filter(|(s, _)| Rc::ptr_eq(s, scenario))
            .and_then(|(_, json)| Some((json.clone(), saved::read_scenario(json).ok()?)));
        let (json, scenario) = saved
            .unwrap_or_else(|| (playground::work::to_message(&**scenario).unwrap_or_default(), (**scenario).clone()));
        Kept {
            entry: Entry {
                id: session.id.clone(),
                title: saved::title_of(&scenario),
                origin: session.origin,
                opened: session.opened,
                saved: browser::now(),
                size: json.len(),
                hash: saved::hash(&json),
            },
            scenario,
        }
    }
}

/// Opens a tab on the link in the address (`link`: what [`browser::read_link`] read of it, `None`
/// without one), the saved work, or the first preset; an embed reads no storage. Also returns why
/// the link did not open, if it did not.
pub fn opening(embed: bool, link: Option<&Result<Scenario, scenario::link::LinkError>>) -> (Opening, Option<String>) {
    let (link, problem) = match link {
        None => (None, None),
        Some(Ok(scenario)) => match scenario::validate::errors(scenario).first() {
            None => (Some(scenario.clone()), None),
            Some(why) => (None, Some(format!("This link's scenario cannot run: {why}"))),
        },
        Some(Err(e)) => (None, Some(e.to_string())),
    };
    let nothing = |_: &str| None;
    let read: &dyn Fn(&str) -> Option<String> = if embed { &nothing } else { &browser::stored };
    let first_preset = || scenario::presets::all().first().and_then(|p| p.scenario().ok()).unwrap_or_default();
    let opened = saved::open(read, link, browser::fresh_id(), browser::now(), first_preset);
    let instead =
        if opened.opened_saved { "Your saved work is shown instead, unchanged" } else { "A preset is shown instead" };
    (opened, problem.map(|why| format!("{why}. {instead}.")))
}

/// Removes kept copies the index does not list (a save cut short between its writes).
pub fn tidy() {
    let Some(index) = browser::stored(saved::INDEX_KEY).and_then(|t| saved::read_index(&t).ok()) else { return };
    let orphans = saved::orphans(&index, &browser::stored_keys());
    let _ = browser::store(&orphans.into_iter().map(|key| saved::Write::Remove { key }).collect::<Vec<_>>());
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
            Callback::from(move |_| keeper.switch_to(&store, &kept.entry, kept.scenario.clone()))
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
                let text = browser::stored(&saved::kept_key(&entry.id));
                match text.ok_or_else(|| "it is no longer in this browser".to_string()).and_then(|t| saved::read_scenario(&t)) {
                    Ok(scenario) => keeper.switch_to(&store, &entry, scenario),
                    Err(why) => store.dispatch(Action::Banner(Some(format!("“{}” could not be opened: {why}.", entry.title)))),
                }
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
