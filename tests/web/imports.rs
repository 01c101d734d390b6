//! Importing a Kattis package from the problem list, over plain HTTP: the
//! form for setters and admins only, the API's use case and its refusals.

use std::path::Path;

use nimjudge::{kattis::import::Package, zip_archive::StoredZip};
use reqwest::{StatusCode, header};

use crate::{
    forms::WebClient,
    helpers::{TestApp, TestDir},
};

/// The hand-written subtraction-game package, zipped inside its folder.
fn zipped_package() -> Vec<u8> {
    let package = Package::read_folder(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kattis/subtractiongame"),
    )
    .expect("the package reads");
    let mut zip = StoredZip::with_limit(usize::MAX);
    for (path, bytes) in &package.files {
        zip.add(&format!("subtractiongame/{path}"), bytes)
            .expect("it fits");
    }
    zip.finish().expect("a zip")
}

/// Posts the import form with `archive` as its file and a time limit.
async fn post(web: &WebClient, csrf: &str, archive: &[u8]) -> reqwest::Response {
    let fields: [(&str, Option<&str>, &[u8]); 4] = [
        ("csrf", None, csrf.as_bytes()),
        ("package", Some("subtractiongame.zip"), archive),
        ("id", None, b""),
        ("time_limit_ms", None, b"2000"),
    ];
    web.post_multipart_bytes("/problems", &fields).await
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_setter_imports_a_package_from_the_problem_list() {
    let dir = TestDir::new();
    let app = // The package is 290 kB: above the fixture's body limit, within the
    // default one.
    TestApp::spawn_with(&dir, 0, &[("SERVER__BODY_LIMIT_BYTES", "1048576")]).await;
    let package = zipped_package();
    let contestant = WebClient::sign_in(&app, &app.contestant).await;
    let page = contestant
        .get("/problems")
        .await
        .text()
        .await
        .expect("page");
    assert!(!page.contains("import-package"), "{page}");
    let refused = post(&contestant, &contestant.csrf, &package).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);

    let web = WebClient::sign_in(&app, &app.setter).await;
    let page = web.get("/problems").await.text().await.expect("page");
    assert!(page.contains("import-package-button"), "{page}");
    let forged = post(&web, "x", &package).await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let empty = post(&web, &web.csrf, &[]).await;
    assert_eq!(empty.status(), StatusCode::BAD_REQUEST);
    assert!(
        empty
            .text()
            .await
            .expect("page")
            .contains("choose a package file")
    );
    let imported = post(&web, &web.csrf, &package).await;
    assert_eq!(imported.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        imported.headers()[header::LOCATION],
        "/problems/subtractiongame"
    );
    let page = contestant
        .get("/problems/subtractiongame")
        .await
        .text()
        .await
        .expect("page");
    assert!(page.contains("Take One, Three or Four"), "{page}");
    // Again: the API's conflict, on the error page.
    let again = post(&web, &web.csrf, &package).await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
    assert!(
        again
            .text()
            .await
            .expect("page")
            .contains("is hosted already")
    );
    app.stop().await;
}
