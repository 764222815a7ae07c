//! Sharing: the link (copied, measured), the embed snippet, and the scenario as a JSON file to
//! export and import (the format `kap` reads).

use assignor::Strategy;
use gloo::file::callbacks::FileReader;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::browser;
use crate::state::Action;
use crate::ui::dialog::Dialog;
use crate::ui::import::ImportDialog;
use crate::ui::Store;

#[function_component]
pub fn ShareBar() -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let open = use_state(|| None::<&'static str>);
    let copied = use_state(|| None::<bool>);
    let reader = use_mut_ref(|| None::<FileReader>);
    let base = browser::page_base();
    // Building the link compresses the whole scenario: only when the dialog shows it. A link too
    // long to share is not offered at all: the JSON file is.
    let shared = if *open == Some("link") {
        scenario::link::shareable_url(&base, &store.scenario, false)
    } else {
        Ok(String::new())
    };
    let link = shared.clone().unwrap_or_default();
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
        let scenario = store.scenario.clone();
        Callback::from(move |_| {
            let name = if scenario.title.is_empty() { "scenario".to_string() } else { slug(&scenario.title) };
            browser::download(&format!("{name}.json"), &scenario::to_json(&scenario));
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
                let parsed =
                    text.map_err(|e| e.to_string()).and_then(|t| scenario::read_file(&t).map_err(|e| e.to_string()));
                match parsed {
                    Ok(scenario) => {
                        // A new entry: the scenario it replaces is kept (Recent).
                        if let Some(keeper) = &keeper {
                            keeper.begin(crate::saved::Origin::Own);
                        }
                        store.dispatch(Action::Load(scenario));
                        store.dispatch(Action::Banner(None));
                    }
                    Err(message) => {
                        store.dispatch(Action::Banner(Some(format!("That file could not be opened: {message}"))))
                    }
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
            if let (Some("link"), Err(too_long)) = (*open, &shared) {
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
    let snippet = scenario::link::iframe(&props.base, &store.scenario);
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
            <a href={scenario::link::url(&props.base, &store.scenario, true)} target="_blank" rel="noopener">{ "Preview the embed" }</a>
        </Dialog>
    }
}
