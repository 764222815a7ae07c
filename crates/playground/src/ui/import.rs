//! The Import dialog: a paste (or a dropped file) of what `kafka-consumer-groups.sh --describe`
//! prints becomes the scenario, read by the same `scenario::import` as `kap import`. Before
//! anything is replaced, the dialog says what was inferred and lists every line it could not read.

use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use playground::work::{ImportRequest, Reading};
use web_sys::{DragEvent, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::state::Action;
use crate::ui::dialog::Dialog;
use crate::ui::Store;

#[derive(Properties, PartialEq)]
pub struct ImportProps {
    pub on_close: Callback<()>,
}

/// Where a paste is read: importing infers subscriptions by running the group's strategy, so the
/// compute worker reads it and the answer comes through the callback, later. Compared by identity.
#[derive(Clone)]
pub struct ImportSource(pub Rc<dyn Fn(ImportRequest, Callback<Reading>)>);

impl PartialEq for ImportSource {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[function_component]
pub fn ImportDialog(props: &ImportProps) -> Html {
    let Some(store) = use_context::<Store>() else { return html! {} };
    let text = use_state(String::new);
    let group = use_state(|| None::<String>);
    let lag = use_state(|| false);
    let reader = use_mut_ref(|| None::<FileReader>);
    let area = use_node_ref();
    {
        // Opened from a button: the paste area takes the focus (autofocus only works on page load).
        let area = area.clone();
        use_effect_with((), move |_| {
            if let Some(element) = area.cast::<HtmlTextAreaElement>() {
                let _ = element.focus();
            }
        });
    }
    // The paste as the dialog's options ask for it, and the last reading the worker sent with what
    // it read: shown until the next comes, never imported once the paste or an option changed.
    let asked = ImportRequest { text: (*text).clone(), group: (*group).clone(), lag: *lag };
    let answered = use_state(|| None::<Rc<(ImportRequest, Reading)>>);
    {
        let (source, answered) = (use_context::<ImportSource>(), answered.clone());
        use_effect_with(asked.clone(), move |asked| match source.filter(|_| !asked.text.trim().is_empty()) {
            Some(source) => {
                let request = asked.clone();
                let answered = answered.clone();
                (source.0)(
                    asked.clone(),
                    Callback::from(move |reading| answered.set(Some(Rc::new((request.clone(), reading))))),
                );
            }
            None => answered.set(None),
        });
    }
    let current = answered.as_ref().is_some_and(|answer| answer.0 == asked);
    let result = answered.as_ref().map(|answer| &answer.1).filter(|_| !asked.text.trim().is_empty());

    let read_file = {
        let (text, group, reader) = (text.clone(), group.clone(), reader.clone());
        move |file: web_sys::File| {
            let (text, group) = (text.clone(), group.clone());
            let task = gloo::file::callbacks::read_as_text(&gloo::file::File::from(file), move |read| {
                group.set(None);
                text.set(read.unwrap_or_else(|e| format!("(the file could not be read: {e})")));
            });
            *reader.borrow_mut() = Some(task);
        }
    };
    let oninput = {
        let (text, group) = (text.clone(), group.clone());
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            group.set(None);
            text.set(area.value());
        })
    };
    let ondrop = {
        let read_file = read_file.clone();
        Callback::from(move |e: DragEvent| {
            let Some(file) = e.data_transfer().and_then(|d| d.files()).and_then(|files| files.get(0)) else { return };
            e.prevent_default();
            read_file(file);
        })
    };
    let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
    let onfile = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        if let Some(file) = input.files().and_then(|files| files.get(0)) {
            read_file(file);
        }
        input.set_value("");
    });
    let onlag = {
        let lag = lag.clone();
        Callback::from(move |_| lag.set(!*lag))
    };
    let ongroup = {
        let group = group.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            group.set(Some(select.value()));
        })
    };
    let imported = result.filter(|_| current).and_then(|r| r.outcome.as_ref().ok()).cloned();
    let can_import = imported.is_some();
    let onimport = {
        let (store, close) = (store.clone(), props.on_close.clone());
        Callback::from(move |_| {
            if let Some(imported) = &imported {
                store.dispatch(Action::Load(imported.scenario.clone()));
                store.dispatch(Action::Banner(None));
                close.emit(());
            }
        })
    };

    html! {
        <Dialog label="Import from Kafka" class="import-dialog" on_close={props.on_close.clone()}>
            <p>
                { "Paste what " }<code>{ "kafka-consumer-groups.sh" }</code>{ " prints for your group — " }
                <code>{ "--describe" }</code>{ ", " }<code>{ "--describe --members --verbose" }</code>{ " and " }
                <code>{ "--describe --state" }</code>{ ", any Kafka version — or drop the file here." }
            </p>
            <label>
                { "Tool output" }
                <textarea ref={area} rows="8" wrap="off" value={(*text).clone()} {oninput} {ondrop} {ondragover} spellcheck="false"
                    placeholder="GROUP  TOPIC  PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG  CONSUMER-ID  HOST  CLIENT-ID" />
            </label>
            <div class="import-options">
                <label class="button">{ "Open a file" }<input type="file" class="sr-only" onchange={onfile} /></label>
                <label class="inline"><input type="checkbox" checked={*lag} onchange={onlag} />{ "Weigh partitions by LAG" }</label>
                if let Some(reading) = result {
                    if reading.groups.len() > 1 {
                        <label class="inline">{ "Group " }
                            <select onchange={ongroup}>
                                { for reading.groups.iter().map(|g| {
                                    let chosen = reading.outcome.as_ref().map(|i| &i.group == g).unwrap_or(false);
                                    html! { <option value={g.clone()} selected={chosen}>{ if g.is_empty() { "(unnamed)" } else { g } }</option> }
                                }) }
                            </select>
                        </label>
                    }
                }
            </div>
            if let Some(reading) = result {
                <div class="import-reading" aria-busy={(!current).to_string()}>{ outcome_view(reading) }</div>
            }
            <div class="actions">
                <button type="button" class="primary" disabled={!can_import} onclick={onimport}>
                    { "Import this group" }
                </button>
            </div>
        </Dialog>
    }
}

fn outcome_view(reading: &Reading) -> Html {
    html! {
        <>
            { match &reading.outcome {
                Ok(imported) => html! {
                    <section class="import-notes" aria-label="inferred">
                        <p>{ format!("{}: {} topic(s), {} consumer(s).",
                            if imported.group.is_empty() { "The group" } else { imported.group.as_str() },
                            imported.scenario.topics.len(), imported.scenario.consumers.len()) }</p>
                        <p>{ "Inferred (the tool does not print these; edit them after importing):" }</p>
                        <ul>{ for imported.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
                    </section>
                },
                Err(e) => html! { <p class="error" role="alert">{ e.to_string() }</p> },
            } }
            if !reading.unread.is_empty() {
                <section class="import-unread" aria-label="lines not read">
                    <p>{ format!("{} line(s) could not be read:", reading.unread.len()) }</p>
                    <ul>{ for reading.unread.iter().map(|u| html! {
                        <li data-line={u.line.0.to_string()}>{ format!("{}: {}", u.line, u.reason) }<code>{ u.text.trim().to_string() }</code></li>
                    }) }</ul>
                </section>
            }
        </>
    }
}
