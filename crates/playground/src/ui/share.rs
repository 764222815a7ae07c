//! Sharing: the link (copied, measured), the embed snippet, and the scenario as a JSON file to
//! export and import (the format `kap` reads). Each is the scenario written whole, its previous
//! assignment included ([`Writer`]).

use std::cell::RefCell;
use std::rc::Rc;

use assignor::Strategy;
use gloo::file::callbacks::FileReader;
use playground::travel::Texts;
use playground::work::Prior;
use scenario::Scenario;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::browser::{self, ComputeWorker};
use crate::state::Action;
use crate::ui::dialog::Dialog;
use crate::ui::import::ImportDialog;
use crate::ui::Store;

/// Writes the scenario on screen as it leaves the page (the address bar, the saved copy, Share
/// link, Embed, Export JSON), its previous assignment included: in the compute worker
/// (`playground::travel`, `Request::Write`), off the page's thread and out of its download (issue
/// 9), which also keeps a big group's previous assignment.
/// The last scenario written is remembered, so a save, a link and an export of it write it once.
#[derive(Clone)]
pub struct Writer {
    worker: Rc<Option<ComputeWorker>>,
    last: Rc<RefCell<Option<Written>>>,
}

/// A scenario on screen (by identity), where its previous assignment was, and its texts.
type Written = (Rc<Scenario>, Prior, Rc<Texts>);

/// Why a scenario could not be written whole: the page never writes a big group without its
/// previous assignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotWritten {
    /// The worker no longer keeps the settled assignment the scenario was computed from.
    NotHeld,
    /// There is no compute worker to ask.
    NoWorker,
}

impl std::fmt::Display for NotWritten {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NotWritten::NotHeld => {
                "the compute worker no longer holds what each member owned before the last rebalance; \
                 \"Fresh start\" saves the group without it"
            }
            NotWritten::NoWorker => "the compute worker, which writes links and saved copies, did not start",
        })
    }
}

impl PartialEq for Writer {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.last, &other.last)
    }
}

impl Writer {
    pub fn new(worker: Rc<Option<ComputeWorker>>) -> Writer {
        Writer { worker, last: Rc::default() }
    }

    /// `give` gets `scenario` written, its previous assignment being where `prior` says: at once
    /// when it was the last written, else when the worker answers.
    pub fn write(
        &self,
        scenario: &Rc<Scenario>,
        prior: Prior,
        give: impl FnOnce(Result<Rc<Texts>, NotWritten>) + 'static,
    ) {
        let remembered = self.last.borrow().as_ref().and_then(|(written, was, texts)| {
            (Rc::ptr_eq(written, scenario) && *was == prior).then(|| Rc::clone(texts))
        });
        if let Some(texts) = remembered {
            return give(Ok(texts));
        }
        let last = Rc::clone(&self.last);
        let keep = {
            let scenario = Rc::clone(scenario);
            move |texts: Texts| {
                let texts = Rc::new(texts);
                *last.borrow_mut() = Some((scenario, prior, Rc::clone(&texts)));
                texts
            }
        };
        match self.worker.as_ref() {
            Some(worker) => {
                worker.write(prior, Rc::clone(scenario), move |texts| give(texts.map(keep).ok_or(NotWritten::NotHeld)))
            }
            None => give(Err(NotWritten::NoWorker)),
        }
    }

    /// Whether `fragment` is the link last written for `scenario`: a link to what is on screen.
    pub fn wrote(&self, scenario: &Rc<Scenario>, fragment: &str) -> bool {
        self.last
            .borrow()
            .as_ref()
            .is_some_and(|(written, _, texts)| Rc::ptr_eq(written, scenario) && texts.fragment == fragment)
    }
}

/// Downloads the scenario on screen as its JSON file, history included, or says why it cannot.
pub fn export(writer: &Writer, store: &Store) {
    let scenario = Rc::clone(&store.scenario);
    let dispatcher = store.dispatcher();
    writer.write(&store.scenario, store.prior(), move |texts| match texts {
        Ok(texts) => {
            let name = if scenario.title.is_empty() { "scenario".to_string() } else { slug(&scenario.title) };
            browser::download(&format!("{name}.json"), &texts.json);
        }
        Err(why) => dispatcher.dispatch(Action::Banner(Some(format!("The scenario could not be exported: {why}.")))),
    });
}

/// The scenario on screen written, while `wanted` (a dialog or the embed shows it): `None` until
/// it is.
#[hook]
pub fn use_written(wanted: bool) -> Option<Result<Rc<Texts>, NotWritten>> {
    let store = use_context::<Store>();
    let writer = use_context::<Writer>();
    let written = use_state(|| None::<(Rc<Scenario>, Result<Rc<Texts>, NotWritten>)>);
    let scenario = store.as_ref().map(|s| (Rc::clone(&s.scenario), s.prior()));
    {
        let written = written.clone();
        use_effect_with((wanted, scenario.clone()), move |(wanted, scenario)| {
            if let (true, Some((scenario, prior)), Some(writer)) = (*wanted, scenario, writer) {
                let shown = Rc::clone(scenario);
                writer.write(scenario, *prior, move |texts| written.set(Some((shown, texts))));
            }
        });
    }
    let current = scenario?.0;
    written.as_ref().filter(|(of, _)| Rc::ptr_eq(of, &current)).map(|(_, texts)| texts.clone())
}

#[function_component]
pub fn ShareBar() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let writer = use_context::<Writer>();
    let open = use_state(|| None::<&'static str>);
    let copied = use_state(|| None::<bool>);
    let reader = use_mut_ref(|| None::<FileReader>);
    let base = browser::page_base();
    // Writing the link compresses the whole scenario: only when the dialog shows it (a big group's
    // in the worker). A link too long to share is not offered at all: the JSON file is.
    let written = use_written(*open == Some("link"));
    let shared = written
        .as_ref()
        .map(|texts| texts.as_ref().map(|texts| scenario::link::shareable(&base, &texts.fragment, false)));
    let link = match &shared {
        Some(Ok(Ok(link))) => link.clone(),
        _ => String::new(),
    };
    let toggle = |which: &'static str| {
        let (open, copied) = (open.clone(), copied.clone());
        Callback::from(move |_| {
            copied.set(None);
            open.set(if *open == Some(which) { None } else { Some(which) });
        })
    };
    let close = {
        let open = open.clone();
        Callback::from(move |()| open.set(None))
    };
    let copy = {
        let (link, copied) = (link.clone(), copied.clone());
        Callback::from(move |_| {
            copied.set(Some(browser::copy_text(&link)));
        })
    };
    let export = {
        let (store, writer) = (store.clone(), writer.clone());
        Callback::from(move |_| {
            if let Some(writer) = &writer {
                export(writer, &store);
            }
        })
    };
    let export_instead = export.clone();
    let keeper = use_context::<crate::ui::saved::Keeper>();
    let import = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
            // Refused by its size before it is read: the most a link may hold.
            if file.size() > scenario::link::MAX_INFLATED as f64 {
                let limit = scenario::link::MAX_INFLATED >> 20;
                input.set_value("");
                return store.dispatch(Action::Banner(Some(format!(
                    "That file could not be opened: it is larger than {limit} MB, the most a scenario may be"
                ))));
            }
            let (store, keeper) = (store.clone(), keeper.clone());
            let task = gloo::file::callbacks::read_as_text(&gloo::file::File::from(file), move |text| {
                let opened = move |opened: Result<Scenario, String>| match opened {
                    Ok(scenario) => {
                        // A new entry: the scenario it replaces is kept (Recent).
                        if let Some(keeper) = &keeper {
                            keeper.begin(playground::saved::Origin::Own);
                        }
                        store.dispatch(Action::Load(scenario));
                        store.dispatch(Action::Banner(None));
                    }
                    Err(message) => {
                        store.dispatch(Action::Banner(Some(format!("That file could not be opened: {message}"))))
                    }
                };
                // Read in the file reader, so the page links none of the rules for `kap batch` lines.
                match text {
                    Ok(text) => browser::open_file(text, opened),
                    Err(e) => opened(Err(e.to_string())),
                }
            });
            *reader.borrow_mut() = Some(task);
            input.set_value("");
        })
    };
    html! {
        <div class="share">
            <button type="button" onclick={toggle("link")} aria-expanded={(*open == Some("link")).to_string()}>{ "Share link" }</button>
            <button type="button" onclick={toggle("embed")} aria-expanded={(*open == Some("embed")).to_string()}>{ "Embed" }</button>
            <button type="button" onclick={export}>{ "Export JSON" }</button>
            <label class="button">{ "Import JSON" }<input type="file" accept=".json,application/json" class="sr-only" onchange={import} /></label>
            <button type="button" onclick={toggle("kafka")} aria-expanded={(*open == Some("kafka")).to_string()}>{ "Import from Kafka" }</button>
            if let (Some("link"), None) = (*open, &shared) {
                <Dialog label="Share link" on_close={close.clone()}>
                    <p class="length writing">{ "Writing the link: the compute worker holds what this group owned before the last rebalance…" }</p>
                </Dialog>
            } else if let (Some("link"), Some(Err(why))) = (*open, &shared) {
                <Dialog label="Share link" on_close={close.clone()}>
                    <p class="length warn not-written">{ format!("No link can be written: {why}.") }</p>
                </Dialog>
            } else if let (Some("link"), Some(Ok(Err(too_long)))) = (*open, &shared) {
                <Dialog label="Share link" on_close={close.clone()}>
                    <p class="length warn too-long">{ format!("{too_long}.") }</p>
                    <button type="button" onclick={export_instead}>{ "Export JSON" }</button>
                </Dialog>
            } else if *open == Some("link") {
                <Dialog label="Share link" on_close={close.clone()}>
                    <label>{ "Link to this scenario" }<input readonly=true value={link.clone()} class="link" /></label>
                    <button type="button" onclick={copy}>{ match *copied { Some(true) => "Copied", Some(false) => "Select the link and copy it", None => "Copy" } }</button>
                    <p class={classes!("length", (link.len() > scenario::link::LONG_LINK).then_some("warn"))}>
                        { format!("{} characters", link.len()) }
                        if link.len() > scenario::link::LONG_LINK {
                            { " — long for chat tools, which may cut it; export the JSON file instead" }
                        }
                    </p>
                </Dialog>
            }
            if *open == Some("embed") {
                <EmbedDialog base={base} on_close={close.clone()} />
            }
            if *open == Some("kafka") {
                <ImportDialog on_close={close} />
            }
        </div>
    }
}

pub fn slug(title: &str) -> String {
    let slug: String =
        title.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    slug.split('-').filter(|s| !s.is_empty()).take(8).collect::<Vec<_>>().join("-")
}

#[derive(Properties, PartialEq)]
struct EmbedProps {
    base: String,
    on_close: Callback<()>,
}

/// Choose what the embed shows; get the `<iframe>` snippet.
#[function_component]
fn EmbedDialog(props: &EmbedProps) -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let view = store.scenario.view.clone();
    let shown = view.shown();
    let toggle_strategy = |strategy: Strategy| {
        let (store, view) = (store.clone(), view.clone());
        Callback::from(move |_| store.dispatch(Action::SetView(view.toggled(strategy))))
    };
    let toggle_diff = {
        let (store, view) = (store.clone(), view.clone());
        Callback::from(move |_| store.dispatch(Action::SetView(scenario::View { diff: !view.diff, ..view.clone() })))
    };
    // The embed links to the scenario written whole, as Share link does.
    let written = use_written(true);
    let fragment = match &written {
        Some(Ok(texts)) => Some(texts.fragment.clone()),
        _ => None,
    };
    let snippet = match (&fragment, &written) {
        (Some(fragment), _) => scenario::link::iframe_with(&props.base, &store.scenario, fragment),
        (None, Some(Err(why))) => format!("No link can be written: {why}."),
        (None, _) => "Writing the link…".to_string(),
    };
    let preview = fragment.map(|fragment| scenario::link::url_with(&props.base, &fragment, true));
    html! {
        <Dialog label="Embed" on_close={props.on_close.clone()}>
            <fieldset>
                <legend>{ "Panels" }</legend>
                { for Strategy::ALL.iter().map(|&s| html! {
                    <label><input type="checkbox" checked={shown.contains(&s)} onchange={toggle_strategy(s)} />{ s.name() }</label>
                }) }
                <label><input type="checkbox" checked={view.diff} onchange={toggle_diff} />{ "show the rebalance" }</label>
            </fieldset>
            <label>{ "Paste into your page" }<textarea readonly=true rows="4" value={snippet} /></label>
            if let Some(preview) = preview {
                <a href={preview} target="_blank" rel="noopener">{ "Preview the embed" }</a>
            }
        </Dialog>
    }
}
