//! The practice page in real Chromium: a person plays `nim-play` against
//! the solver core; following the explanation's hints wins, and the losing
//! side loses.

use fantoccini::{Client, Locator};

use crate::{
    browser::{click_and_wait_for_page, screenshot, sign_in, text_of, with_browser},
    helpers::{TestApp, TestDir},
};

/// Whether the game is over: the page shows its result.
async fn result(client: &Client) -> Option<String> {
    match client.find(Locator::Css("#result")).await {
        Ok(element) => Some(element.text().await.expect("the result's text")),
        Err(_) => None,
    }
}

fn on_play_page(path: &str) -> bool {
    path == "/problems/nim-play/play"
}

/// Opens the explanation panel.
async fn open_explanation(client: &Client) {
    client
        .find(Locator::Css("#explain summary"))
        .await
        .expect("the explanation")
        .click()
        .await
        .expect("open the explanation");
}

/// Opens the explanation and clicks its first winning move, until the game
/// ends; the result.
async fn follow_the_hints(client: &Client) -> String {
    for _ in 0..200 {
        if let Some(result) = result(client).await {
            return result;
        }
        open_explanation(client).await;
        click_and_wait_for_page(client, Locator::Css("button.hint"), on_play_page).await;
    }
    panic!("the game did not end in 200 moves");
}

/// Types a legal move (one stone from the first non-empty pile) until the
/// game ends; the result.
async fn play_one_stone_at_a_time(client: &Client) -> String {
    for _ in 0..200 {
        if let Some(result) = result(client).await {
            return result;
        }
        let position = text_of(client, "#position").await;
        let piles = position.lines().nth(1).expect("the piles' line");
        let pile = piles
            .split(' ')
            .position(|a| a != "0")
            .expect("a non-empty pile");
        client
            .find(Locator::Id("move"))
            .await
            .expect("the move box")
            .send_keys(&format!("{} 1", pile + 1))
            .await
            .expect("type the move");
        click_and_wait_for_page(client, Locator::Id("play-move"), on_play_page).await;
    }
    panic!("the game did not end in 200 moves");
}

/// The explanation's advice on a dealt position: does the first player win?
async fn first_player_wins(client: &Client) -> bool {
    open_explanation(client).await;
    let advice = text_of(client, "#advice").await;
    assert!(
        advice.contains("wins here") || advice.contains("loses here"),
        "{advice}"
    );
    advice.contains("first player wins")
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn following_the_hints_wins_and_the_losing_side_loses() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        dir.add_bundled_problem("nim-play");
        dir.add_bundled_problem("dont-say-n-play");
        let app = TestApp::spawn(&dir, 0).await;
        sign_in(&client, &app.address, &app.contestant).await;
        // The list marks it interactive; the batch problem is not.
        let list = text_of(&client, "#problems").await;
        assert!(list.contains("Nim, played interactive"), "{list}");
        assert!(!list.contains("Nim interactive"), "{list}");
        client
            .goto(&format!("{}/problems/nim-play", app.address))
            .await
            .expect("open the problem");
        click_and_wait_for_page(&client, Locator::Id("practice-link"), on_play_page).await;
        let (mut winning_deals, mut losing_deals) = (0, 0);
        for seed in 1..40 {
            if winning_deals >= 1 && losing_deals >= 1 {
                break;
            }
            let deal = format!("{}/problems/nim-play/play?seed={seed}", app.address);
            client.goto(&deal).await.expect("deal");
            if first_player_wins(&client).await {
                winning_deals += 1;
                click_and_wait_for_page(&client, Locator::Id("play-first"), on_play_page).await;
                let result = follow_the_hints(&client).await;
                assert_eq!(result, "You won: the judge has no move.");
                screenshot(&client, "practice-won").await;
            } else {
                losing_deals += 1;
                // Second, with the hints: a win.
                click_and_wait_for_page(&client, Locator::Id("play-second"), on_play_page).await;
                let history = text_of(&client, "#history").await;
                assert!(history.starts_with("you: Second\njudge: "), "{history}");
                assert_eq!(
                    follow_the_hints(&client).await,
                    "You won: the judge has no move."
                );
                // First, the losing side: a loss, whatever is played.
                client.goto(&deal).await.expect("deal again");
                click_and_wait_for_page(&client, Locator::Id("play-first"), on_play_page).await;
                assert_eq!(
                    play_one_stone_at_a_time(&client).await,
                    "The judge won: you have no move."
                );
                screenshot(&client, "practice-lost").await;
            }
        }
        assert!(winning_deals >= 1 && losing_deals >= 1);

        // An illegal move is refused, the position kept.
        client
            .goto(&format!("{}/problems/nim-play/play?seed=1", app.address))
            .await
            .expect("deal");
        let position = text_of(&client, "#position").await;
        click_and_wait_for_page(&client, Locator::Id("play-first"), on_play_page).await;
        client
            .find(Locator::Id("move"))
            .await
            .expect("the move box")
            .send_keys("99 1")
            .await
            .expect("type");
        click_and_wait_for_page(&client, Locator::Id("play-move"), on_play_page).await;
        let refused = text_of(&client, "#refused").await;
        assert!(
            refused.starts_with("illegal move: there is no pile 99"),
            "{refused}"
        );
        assert_eq!(text_of(&client, "#position").await, position);
        screenshot(&client, "practice-refused").await;
        // nim-play's positions are its input; a count in play is more than
        // dont-say-n's input, and the page says how it is written.
        assert!(client.find(Locator::Id("position-format")).await.is_err());
        client
            .goto(&format!(
                "{}/problems/dont-say-n-play/play?seed=1",
                app.address
            ))
            .await
            .expect("deal");
        assert_eq!(
            text_of(&client, "#position-format").await,
            "Written as N K, then S, then the number said last (0 at the start)."
        );
        assert!(text_of(&client, "#position").await.ends_with("\n0"));
        app.stop().await;
    })
    .await;
}

/// `practice_hints = false`: the practice page plays but explains nothing,
/// and the API says so.
#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_setter_can_turn_the_hints_off() {
    let dir = TestDir::new();
    dir.add_bundled_problem("nim-play");
    let manifest = dir.path().join("problems/nim-play/problem.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen(
            "memory_limit_mib = 512\n",
            "memory_limit_mib = 512\npractice_hints = false\n",
            1,
        ),
    )
    .unwrap();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, problem) = app.get("/api/problems/nim-play", &app.contestant).await;
    assert_eq!(status, reqwest::StatusCode::OK, "{problem}");
    assert_eq!(problem["problem"]["interactive"], true, "{problem}");
    assert_eq!(problem["problem"]["practice_hints"], false, "{problem}");
    let web = crate::forms::WebClient::sign_in(&app, &app.contestant).await;
    let page = web.get("/problems/nim-play/play?seed=1").await;
    assert_eq!(page.status(), reqwest::StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(html.contains(r#"id="play-first""#), "{html}");
    assert!(!html.contains(r#"id="explain""#), "{html}");
    let position = html
        .split(r#"name="position" value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the position field")
        .replace("&#10;", "\n");
    let page = web
        .post_form(
            "/problems/nim-play/play",
            &[
                ("csrf", &web.csrf),
                ("position", &position),
                ("seed", "1"),
                ("action", "first"),
            ],
        )
        .await;
    assert_eq!(page.status(), reqwest::StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(html.contains(r#"id="move""#), "{html}");
    assert!(
        !html.contains(r#"id="explain""#) && !html.contains("hint"),
        "{html}"
    );
    app.stop().await;
}
