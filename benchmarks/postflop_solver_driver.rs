// cfrlib's driver for postflop-solver (b-inary, AGPL): solves one spot through the library's public
// API and prints what the parity benchmark compares, as JSON on stdout. Built and run by
// benchmarks/postflop_solver.py, which writes the spot on stdin as `key=value` lines:
//
//   oop_range, ip_range          range text (player 0 = OOP acts first, player 1 = IP)
//   board                        3, 4 or 5 cards, e.g. Td9d6hQc
//   starting_pot, effective_stack
//   {flop,turn,river}_{oop,ip}_{bet,raise}   bet and raise sizes, e.g. "60%, e, a" and "2.5x"
//   {turn,river}_donk            donk sizes, empty for none
//   add_allin_threshold, force_allin_threshold, merging_threshold
//   iterations, eval_every       DCFR iterations (solve_step), exploitability every k of them
//   target                       stop at the first evaluation at or below this (chips; 0: never)
//   compression                  1: 16-bit storage, 0: 32-bit floats
//   clock_ticks_per_second       the unit of /proc/self/stat's CPU times (getconf CLK_TCK)
//
// Threads: rayon's global pool, sized by the RAYON_NUM_THREADS environment variable.
// The log's seconds count solve_step only (exploitability evaluations excluded): wall-clock
// seconds, and the process's CPU seconds (all threads; Linux's /proc/self/stat, in clock ticks).

use postflop_solver::*;
use std::collections::HashMap;
use std::io::Read;
use std::time::Instant;

fn json_list<T: std::fmt::Display>(items: &[T]) -> String {
    let parts: Vec<String> = items.iter().map(|x| x.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

fn json_strings(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| format!("\"{s}\"")).collect();
    format!("[{}]", parts.join(", "))
}

/// User + system CPU seconds of this process so far, all threads (fields 14 and 15 of
/// /proc/self/stat, counted after the parenthesised command name).
fn cpu_seconds(ticks_per_second: f64) -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let fields: Vec<&str> = stat.rsplit_once(')').expect("stat").1.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / ticks_per_second
}

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("spot on stdin");
    let spot: HashMap<&str, &str> = text
        .lines()
        .filter_map(|line| line.split_once('='))
        .map(|(key, value)| (key.trim(), value.trim()))
        .collect();
    let get = |key: &str| -> &str { spot.get(key).unwrap_or_else(|| panic!("spot lacks {key}")) };
    let number = |key: &str| -> f64 { get(key).parse().unwrap_or_else(|_| panic!("{key}: not a number")) };

    let board_text = get("board");
    let board: Vec<Card> = (0..board_text.len())
        .step_by(2)
        .map(|i| card_from_str(&board_text[i..i + 2]).expect("board card"))
        .collect();
    let card_config = CardConfig {
        range: [get("oop_range").parse().expect("OOP range"), get("ip_range").parse().expect("IP range")],
        flop: [board[0], board[1], board[2]],
        turn: if board.len() > 3 { board[3] } else { NOT_DEALT },
        river: if board.len() > 4 { board[4] } else { NOT_DEALT },
    };
    let sizes = |street: &str, player: &str| {
        let bet = get(&format!("{street}_{player}_bet"));
        let raise = get(&format!("{street}_{player}_raise"));
        BetSizeOptions::try_from((bet, raise)).expect("bet sizes")
    };
    let donk = |street: &str| {
        let sizes = get(&format!("{street}_donk"));
        if sizes.is_empty() { None } else { Some(DonkSizeOptions::try_from(sizes).expect("donk sizes")) }
    };
    let tree_config = TreeConfig {
        initial_state: match board.len() {
            3 => BoardState::Flop,
            4 => BoardState::Turn,
            _ => BoardState::River,
        },
        starting_pot: number("starting_pot") as i32,
        effective_stack: number("effective_stack") as i32,
        rake_rate: 0.0,
        rake_cap: 0.0,
        flop_bet_sizes: [sizes("flop", "oop"), sizes("flop", "ip")],
        turn_bet_sizes: [sizes("turn", "oop"), sizes("turn", "ip")],
        river_bet_sizes: [sizes("river", "oop"), sizes("river", "ip")],
        turn_donk_sizes: donk("turn"),
        river_donk_sizes: donk("river"),
        add_allin_threshold: number("add_allin_threshold"),
        force_allin_threshold: number("force_allin_threshold"),
        merging_threshold: number("merging_threshold"),
    };
    let tree = ActionTree::new(tree_config).expect("action tree");
    let mut game = PostFlopGame::with_config(card_config, tree).expect("game");
    let (memory_32bit, memory_16bit) = game.memory_usage();
    game.allocate_memory(number("compression") != 0.0);

    let iterations = number("iterations") as u32;
    let eval_every = number("eval_every") as u32;
    let target = number("target") as f32;
    let ticks = number("clock_ticks_per_second");
    let mut log = vec![format!("[0, 0.0, 0.0, {}]", compute_exploitability(&game))];
    let (mut seconds, mut cpu) = (0.0, 0.0);
    let mut done = 0;
    while done < iterations {
        let (start, cpu_start) = (Instant::now(), cpu_seconds(ticks));
        let stop = (done + eval_every).min(iterations);
        for t in done..stop {
            solve_step(&game, t);
        }
        seconds += start.elapsed().as_secs_f64();
        cpu += cpu_seconds(ticks) - cpu_start;
        done = stop;
        let exploitability = compute_exploitability(&game);
        log.push(format!("[{done}, {seconds}, {cpu}, {exploitability}]"));
        if exploitability <= target {
            break;
        }
    }
    finalize(&mut game);
    game.cache_normalized_weights();

    let hands: Vec<String> = (0..2)
        .map(|p| json_strings(&holes_to_strings(game.private_cards(p)).expect("hands")))
        .collect();
    let values: Vec<String> = (0..2).map(|p| json_list(&game.expected_values(p))).collect();
    let equities: Vec<String> = (0..2).map(|p| json_list(&game.equity(p))).collect();
    let weights: Vec<String> = (0..2).map(|p| json_list(game.normalized_weights(p))).collect();
    let actions: Vec<String> = game.available_actions().iter().map(|a| format!("{a:?}")).collect();
    println!("{{");
    println!("  \"iterations\": {done},");
    println!("  \"solve_seconds\": {seconds},");
    println!("  \"solve_cpu_seconds\": {cpu},");
    println!("  \"exploitability_log\": [{}],", log.join(", "));
    println!("  \"final_exploitability\": {},", compute_exploitability(&game));
    println!("  \"memory_bytes\": {{\"float32\": {memory_32bit}, \"int16\": {memory_16bit}}},");
    println!("  \"root_player\": {},", game.current_player());
    println!("  \"root_actions\": {},", json_strings(&actions));
    println!("  \"root_strategy\": {},", json_list(&game.strategy()));
    println!("  \"hands\": [{}],", hands.join(", "));
    println!("  \"normalized_weights\": [{}],", weights.join(", "));
    println!("  \"expected_values\": [{}],", values.join(", "));
    println!("  \"equity\": [{}]", equities.join(", "));
    println!("}}");
}
