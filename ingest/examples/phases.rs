//! Where ingest time goes, phase by phase, on in-memory inputs (one thread).
//! `cargo run --release -p haifu-ingest --example phases -- ../shared/corpus/mjlog`

use std::time::Instant;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use haifu_ingest::batches::{ChoicesBatch, DecisionsBatch, EventsBatch, GameRow, GamesBatch, RoundsBatch, TableBatch};
use parquet::arrow::ArrowWriter;

fn main() {
    let args: Vec<std::path::PathBuf> = std::env::args_os().skip(1).map(Into::into).collect();
    let files = haifu_ingest::source::expand_inputs(&args, &[]).unwrap();
    let texts: Vec<(String, Vec<u8>)> = files
        .iter()
        .filter_map(|f| {
            let t = haifu_record::source::decompress(std::fs::read(f).ok()?).ok()?;
            Some((f.file_name()?.to_string_lossy().into_owned(), t))
        })
        .collect();
    let mb = texts.iter().map(|t| t.1.len()).sum::<usize>() as f64 / 1e6;
    let t = Instant::now();
    let records: Vec<_> = texts.iter().filter_map(|(n, x)| haifu_record::read_games(n, x).ok()).flatten().collect();
    let parse = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let games: Vec<_> = records.iter().filter_map(|r| Some((r, haifu_ingest::extract(r).ok()?))).collect();
    let replay = t.elapsed().as_secs_f64();
    let rows: Vec<GameRow> = games
        .iter()
        .map(|(r, g)| GameRow {
            game_id: 1,
            source_file: "x",
            source_hash: "h",
            record: r,
            replayed: g,
            date: None,
            play_hash: r.play_hash(),
        })
        .collect();
    fn table<B: TableBatch>(rows: &[GameRow]) -> (f64, f64, f64) {
        let mut b = B::default();
        let mut batches = Vec::new();
        let t = Instant::now();
        for r in rows {
            b.push(r);
            if b.len() >= 32768 {
                batches.push(b.finish());
            }
        }
        batches.push(b.finish());
        let build = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
        let level: i32 = env("ZSTD", "3").parse().unwrap();
        let comp = if level == 0 {
            parquet::basic::Compression::SNAPPY
        } else {
            parquet::basic::Compression::ZSTD(parquet::basic::ZstdLevel::try_new(level).unwrap())
        };
        let stats = match env("STATS", "page").as_str() {
            "none" => parquet::file::properties::EnabledStatistics::None,
            "chunk" => parquet::file::properties::EnabledStatistics::Chunk,
            _ => parquet::file::properties::EnabledStatistics::Page,
        };
        let mut props = parquet::file::properties::WriterProperties::builder()
            .set_compression(comp)
            .set_dictionary_enabled(env("DICT", "1") != "0")
            .set_statistics_enabled(stats);
        if env("DICT", "1") == "str" {
            // dictionary only for text columns
            for f in B::schema().fields() {
                if !matches!(f.data_type(), arrow::datatypes::DataType::Utf8) {
                    let leaf = match f.data_type() {
                        arrow::datatypes::DataType::List(_) => format!("{}.list.item", f.name()),
                        _ => f.name().to_string(),
                    };
                    props = props.set_column_dictionary_enabled(leaf.into(), false);
                }
            }
        }
        for c in env("DELTA", "").split(',').filter(|x| !x.is_empty()) {
            props = props
                .set_column_dictionary_enabled(c.into(), false)
                .set_column_encoding(c.into(), parquet::basic::Encoding::DELTA_BINARY_PACKED);
        }
        for c in env("NODICT", "").split(',').filter(|x| !x.is_empty()) {
            props = props.set_column_dictionary_enabled(c.into(), false);
        }
        let props = props.build();
        let drop: Vec<String> = env("DROP", "").split(',').filter(|x| !x.is_empty()).map(String::from).collect();
        let only: Vec<String> = env("KEEP", "").split(',').filter(|x| !x.is_empty()).map(String::from).collect();
        let keep: Vec<usize> = B::schema()
            .fields()
            .iter()
            .enumerate()
            .filter(|(_, f)| !drop.contains(f.name()) && (only.is_empty() || only.contains(f.name())))
            .map(|(i, _)| i)
            .collect();
        let schema = std::sync::Arc::new(B::schema().project(&keep).unwrap());
        let mut w = ArrowWriter::try_new(Vec::new(), schema, Some(props)).unwrap();
        for b in &batches {
            w.write(&b.project(&keep).unwrap()).unwrap();
            w.flush().unwrap();
        }
        let bytes = w.into_inner().unwrap().len() as f64 / 1e6;
        (build, t.elapsed().as_secs_f64(), bytes)
    }
    println!("{mb:.1} MB, {} games: parse {parse:.2}s, replay {replay:.2}s", games.len());
    for (name, (b, w, sz)) in [
        ("games", table::<GamesBatch>(&rows)),
        ("rounds", table::<RoundsBatch>(&rows)),
        ("events", table::<EventsBatch>(&rows)),
        ("decisions", table::<DecisionsBatch>(&rows)),
        ("choices", table::<ChoicesBatch>(&rows)),
    ] {
        println!("{name}: build {b:.2}s, parquet {w:.2}s, {sz:.1} MB");
    }
}
