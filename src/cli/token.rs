//! `nimjudge token create`: a token straight into the daemon's database.

use std::process::ExitCode;

use anyhow::bail;
use clap::Subcommand;

use super::ConfigArg;
use crate::{
    config::Config,
    domain::{MAX_NAME_LEN, Role, is_user_name},
    store::{OpenMode, Store},
};

#[derive(Debug, Subcommand)]
pub enum TokenAction {
    /// Create a token and print its secret (stored hashed; shown once).
    Create {
        #[arg(long)]
        name: String,
        /// contestant, setter or admin.
        #[arg(long)]
        role: Role,
        #[command(flatten)]
        config: ConfigArg,
    },
}

impl clap::ValueEnum for Role {
    fn value_variants<'a>() -> &'a [Self] {
        Role::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

pub async fn run(action: TokenAction) -> anyhow::Result<ExitCode> {
    let TokenAction::Create { name, role, config } = action;
    let name = name.trim();
    if !is_user_name(name) {
        bail!(
            "--name must be 1 to {MAX_NAME_LEN} characters, without control characters \
             or a space at either end"
        );
    }
    let config = Config::load(config.config.as_deref())?;
    // A token in a database the daemon does not use would be useless: never
    // create one here.
    let store = Store::open(&config.database, OpenMode::MustExist).await?;
    let secret = store.create_token(name, role).await?;
    store.close().await;
    eprintln!(
        "created a {role} token for {name} in {}",
        store.file().display()
    );
    println!("{secret}");
    Ok(ExitCode::SUCCESS)
}
