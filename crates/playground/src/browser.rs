//! The only module that touches browser APIs: the URL, storage, the clipboard, downloads. Every
//! call tolerates their absence (a sandboxed iframe has no storage, an old browser no clipboard).

use wasm_bindgen::JsValue;

use crate::saved::{Unsaved, Write};

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

/// Every key in storage.
pub fn stored_keys() -> Vec<String> {
    let Some(storage) = storage() else { return Vec::new() };
    (0..storage.length().unwrap_or(0)).filter_map(|i| storage.key(i).ok().flatten()).collect()
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
