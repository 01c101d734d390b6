//! Real Chromium, driven through chromedriver: each test starts its own
//! chromedriver on a free port and a headless Chromium with a fresh profile
//! in a temporary folder, and ends both when it finishes, even when it
//! fails. Missing `chromium` or `chromedriver` fails the test, saying what
//! to install; it never skips.

use std::{
    future::Future,
    io::Write as _,
    net::TcpListener,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::Once,
    time::{Duration, Instant},
};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;

/// What to install when a browser program is missing.
const INSTALL: &str = "install Debian's `chromium` and `chromium-driver` packages \
    (`apt-get install chromium chromium-driver`; scripts/test.sh does it)";

/// Finds `program` on `PATH`.
fn find_program(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|folder| folder.join(program))
        .find(|path| path.is_file())
}

/// A chromedriver process, killed when dropped (also when a test panics).
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A headless Chromium session and the chromedriver serving it.
pub struct Browser {
    pub client: Client,
    driver: Driver,
    profile: tempfile::TempDir,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium through it.
    pub async fn start() -> Browser {
        let chromedriver = find_program("chromedriver")
            .unwrap_or_else(|| panic!("chromedriver is not installed: {INSTALL}"));
        let chromium = find_program("chromium")
            .unwrap_or_else(|| panic!("chromium is not installed: {INSTALL}"));
        let port = {
            let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
            listener.local_addr().expect("its address").port()
        };
        let child = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromedriver.display()));
        let driver = Driver(child);
        let url = format!("http://127.0.0.1:{port}");
        wait_until_ready(&url).await;
        let profile = tempfile::Builder::new()
            .prefix("nimjudge-chromium-")
            .tempdir()
            .expect("a profile folder");
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("browserName".into(), json!("chrome"));
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": chromium,
                "args": [
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-dev-shm-usage",
                    "--window-size=1200,900",
                    format!("--user-data-dir={}", profile.path().display()),
                ],
            }),
        );
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&url)
            .await
            .unwrap_or_else(|e| panic!("cannot start Chromium through chromedriver: {e}"));
        Browser {
            client,
            driver,
            profile,
        }
    }

    /// Ends the Chromium session, then chromedriver, then the profile.
    async fn finish(self) {
        let _ = self.client.close().await;
        drop(self.driver);
        drop(self.profile);
    }
}

/// Waits for chromedriver to answer `/status`.
async fn wait_until_ready(url: &str) {
    let http = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(response) = http.get(format!("{url}/status")).send().await
            && response.status().is_success()
        {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "chromedriver did not answer on {url} within 20 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Runs `test` with a fresh browser, then closes the browser whatever
/// happened, and fails if `test` failed.
pub async fn with_browser<F, Fut>(test: F)
where
    F: FnOnce(Client) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let browser = Browser::start().await;
    let outcome = tokio::spawn(test(browser.client.clone())).await;
    browser.finish().await;
    if let Err(failure) = outcome {
        match failure.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(other) => panic!("the browser test did not finish: {other}"),
        }
    }
}

/// The folder screenshots go to, printed once per run.
pub fn screenshot_dir() -> PathBuf {
    static PRINTED: Once = Once::new();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&dir).expect("create the screenshot folder");
    // Written to stderr directly, past the test harness's capture, so a
    // passing run shows it too.
    PRINTED.call_once(|| {
        let _ = writeln!(std::io::stderr(), "web screenshots: {}", dir.display());
    });
    dir
}

/// Saves the page as `<name>.png` in [`screenshot_dir`].
pub async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("take a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a screenshot is a PNG");
    let path = screenshot_dir().join(format!("{name}.png"));
    std::fs::write(&path, png).expect("write the screenshot");
}

/// The text of the element with this CSS selector.
pub async fn text_of(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no element `{css}`: {e}"))
        .text()
        .await
        .expect("element text")
}

/// Waits up to `limit` for the element `css` to have exactly `expected` as
/// its text; returns every distinct text seen on the way.
pub async fn wait_for_text(
    client: &Client,
    css: &str,
    expected: &str,
    limit: Duration,
) -> Vec<String> {
    let deadline = Instant::now() + limit;
    let mut seen: Vec<String> = Vec::new();
    loop {
        // The page's script may replace the element between the find and
        // the read: a stale element is read again on the next round.
        let read = match client.find(Locator::Css(css)).await {
            Ok(element) => match element.text().await {
                Ok(text) => Some(text),
                Err(e) if e.is_stale_element_reference() => None,
                Err(e) => panic!("reading `{css}` failed: {e}"),
            },
            Err(e) => panic!("no element `{css}`: {e}"),
        };
        if let Some(text) = read {
            if seen.last() != Some(&text) {
                seen.push(text.clone());
            }
            if text == expected {
                return seen;
            }
        }
        assert!(
            Instant::now() < deadline,
            "`{css}` never read `{expected}` within {limit:?}; it read {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The path of the page the browser shows.
pub async fn current_path(client: &Client) -> String {
    client
        .current_url()
        .await
        .expect("the current url")
        .path()
        .to_string()
}

/// Signs in through the sign-in form with `token`.
pub async fn sign_in(client: &Client, address: &str, token: &str) {
    client
        .goto(&format!("{address}/sign-in"))
        .await
        .expect("open the sign-in page");
    client
        .find(Locator::Id("token"))
        .await
        .expect("the token field")
        .send_keys(token)
        .await
        .expect("type the token");
    click_and_wait_for_page(client, Locator::Id("sign-in"), |path| path == "/problems").await;
}

/// Clicks the element `target` and waits until the browser has left the
/// page it was on and shows a loaded page whose path passes `wanted`;
/// returns that path.
///
/// Waiting for the path alone is not enough when the next page has the
/// same path as this one (a form that posts to its own page): the old
/// page would pass at once and its elements go stale mid-read. So the old
/// page's root element is held, and the wait starts only once the browser
/// calls it stale.
pub async fn click_and_wait_for_page(
    client: &Client,
    target: Locator<'_>,
    wanted: impl Fn(&str) -> bool,
) -> String {
    let old_root = client
        .find(Locator::Css("html"))
        .await
        .expect("the page's root element");
    client
        .find(target)
        .await
        .unwrap_or_else(|e| panic!("nothing to click at {target:?}: {e}"))
        .click()
        .await
        .expect("click");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match old_root.tag_name().await {
            Err(e) if e.is_stale_element_reference() => break,
            // Chromium sometimes reports the same fact through its
            // inspector, as an unknown error, mid-navigation.
            Err(e) if e.to_string().contains("does not belong to the document") => break,
            Err(e) => panic!("reading the old page failed: {e}"),
            Ok(_) => {}
        }
        assert!(
            Instant::now() < deadline,
            "the browser stayed on the old page 10 s after the click on {target:?}"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    wait_for_path(client, wanted).await
}

/// Waits up to 10 s for the browser to show a page whose path passes
/// `wanted` (a click on a submit button returns before the next page
/// loads); returns that path.
pub async fn wait_for_path(client: &Client, wanted: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let path = current_path(client).await;
        if wanted(&path) && client.source().await.is_ok_and(|s| s.contains("</main>")) {
            return path;
        }
        if Instant::now() >= deadline {
            let shown = client.source().await.unwrap_or_default();
            panic!("the browser stayed on {path}; the page reads: {shown}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
