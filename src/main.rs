//! `haifu`: the command line without libtorch. It runs every command that runs no network and hands the
//! others to the network binary `haifu-neural` ([`haifu::handoff`]), so that the user types `haifu` for all.

use haifu::{handoff, Command};

fn main() {
    haifu::start();
    let cli = haifu::parse_cli();
    let network = handoff::network_binary();
    match (cli.command.network(), network) {
        (Some(_), Some(bin)) => haifu::finish(handoff::exec(&bin)),
        (Some(what), None) => haifu::finish(Err(handoff::missing(what))),
        // the whole demo, its network step included, where the network binary is there
        (None, Some(bin)) if matches!(cli.command, Command::Demo(_)) => haifu::finish(handoff::exec(&bin)),
        _ => haifu::finish(haifu::run(&cli.command, None)),
    }
}
