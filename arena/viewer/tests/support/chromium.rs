//! Headless Chromium over chromedriver for the browser tests: the viewer's
//! (`arena/viewer/tests/browser.rs`) and the server's (`tests/server_browser.rs`, which
//! includes this file with `#[path]`). Flags as this machine needs them: no sandbox (root),
//! no background networking (the network is closed), a fresh profile.

use fantoccini::{Client, ClientBuilder};
use serde_json::json;
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// A chromedriver process, killed when dropped.
pub struct Driver {
    child: Child,
    port: u16,
    _profile: tempfile::TempDir,
    chromium: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find(names: &[&str], env: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env) {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// Start chromedriver, or explain why the browser tests cannot run.
pub fn driver() -> Result<Driver, String> {
    let chromium = find(
        &["chromium", "chromium-browser", "google-chrome"],
        "CHROMIUM",
    )
    .ok_or("no chromium on PATH (apt-get install chromium chromium-driver)")?;
    let chromedriver = find(&["chromedriver"], "CHROMEDRIVER")
        .ok_or("no chromedriver on PATH (apt-get install chromium-driver)")?;
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let child = Command::new(&chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", chromedriver.display()))?;
    let driver = Driver {
        child,
        port,
        _profile: tempfile::tempdir().map_err(|e| e.to_string())?,
        chromium,
    };
    // Wait for it to listen: a readiness poll, not a timing assumption of the test.
    for _ in 0..200 {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(driver);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    Err("chromedriver did not start listening".to_owned())
}

pub async fn browser(driver: &Driver) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_owned(),
        json!({
            "binary": driver.chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000",
                format!("--user-data-dir={}", driver._profile.path().display()),
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser session")
}
