//! The page's dialogs (Share link, Embed, Recent, Import from Kafka) share one frame, so each can
//! always be closed the same ways: Escape, wherever the focus is, and a visible close button.
//! They hang below the sticky header (the CSS places them), never over the buttons that open
//! them, and when one closes the focus goes back to the button that opened it. One is open at a
//! time: opening a dialog closes any other (at 390 px two would cover each other).

use std::rc::Rc;

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use web_sys::{Event, EventInit, HtmlElement, KeyboardEvent};

/// The event a dialog sends (bubbling, from itself) when it opens, so the others close.
const OPENED: &str = "playground-dialog-opened";
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct DialogProps {
    /// The dialog's accessible name.
    pub label: AttrValue,
    pub on_close: Callback<()>,
    #[prop_or_default]
    pub class: Classes,
    #[prop_or_default]
    pub children: Html,
}

/// The element that has the focus, if any (not the page's body).
fn focused() -> Option<HtmlElement> {
    let document = web_sys::window()?.document()?;
    let active = document.active_element()?;
    if document.body().is_some_and(|body| body.is_same_node(Some(&active))) {
        return None;
    }
    active.dyn_into::<HtmlElement>().ok()
}

#[function_component]
pub fn Dialog(props: &DialogProps) -> Html {
    let node = use_node_ref();
    // The latest on_close, for the Escape listener set up once.
    let on_close = use_mut_ref(|| props.on_close.clone());
    *on_close.borrow_mut() = props.on_close.clone();
    {
        let node = node.clone();
        let on_close = Rc::clone(&on_close);
        use_effect_with((), move |_| {
            // The button that opened the dialog (a click focuses it).
            let opener = focused();
            let close_for_others = Rc::clone(&on_close);
            let listener = web_sys::window().and_then(|w| w.document()).map(|document| {
                EventListener::new(&document, "keydown", move |event| {
                    let Some(key) = event.dyn_ref::<KeyboardEvent>() else { return };
                    // An Escape a control inside already used (a picker closing) is not ours.
                    if key.key() == "Escape" && !key.default_prevented() {
                        let close = on_close.borrow().clone();
                        close.emit(());
                    }
                })
            });
            // Another dialog opening closes this one.
            let others = web_sys::window().and_then(|w| w.document()).map(|document| {
                let (node, on_close) = (node.clone(), close_for_others);
                EventListener::new(&document, OPENED, move |event| {
                    let from_self = match (event.target(), node.get()) {
                        (Some(target), Some(own)) => {
                            target.dyn_ref::<web_sys::Node>().is_some_and(|t| own.is_same_node(Some(t)))
                        }
                        _ => false,
                    };
                    if !from_self {
                        let close = on_close.borrow().clone();
                        close.emit(());
                    }
                })
            });
            if let Some(own) = node.get() {
                let init = EventInit::new();
                init.set_bubbles(true);
                if let Ok(opened) = Event::new_with_event_init_dict(OPENED, &init) {
                    let _ = own.dispatch_event(&opened);
                }
            }
            move || {
                drop(listener);
                drop(others);
                // Back to the opener if the focus went with the dialog, not if the person has
                // moved on (another dialog's button).
                let lost = match focused() {
                    None => true,
                    Some(active) => {
                        !active.is_connected() || node.get().is_some_and(|dialog| dialog.contains(Some(&active)))
                    }
                };
                if let (true, Some(opener)) = (lost, opener) {
                    let _ = opener.focus();
                }
            }
        });
    }
    let close = {
        let on_close = props.on_close.clone();
        Callback::from(move |_| on_close.emit(()))
    };
    html! {
        <div ref={node} class={classes!("dialog", props.class.clone())} role="dialog" aria-label={props.label.clone()}>
            <div class="dialog-head">
                <h2>{ props.label.clone() }</h2>
                <button type="button" class="close" aria-label="Close" title="Close (Esc)" onclick={close}>{ "✕" }</button>
            </div>
            { props.children.clone() }
        </div>
    }
}
