#!/usr/bin/env python3
"""The choices table's figures of docs/RESULTS.md: per kind of option, how often a game offers it and how often it
is taken, and the spread of the taken rate across players with 50+ offers. A dataset written with
`haifu ingest` (with its choices table); DuckDB (`pip install duckdb==1.5.6`).

    python3 scripts/choices_figures.py DATASET
"""
import duckdb,sys
ds=sys.argv[1]
con=duckdb.connect()
con.sql(f"create view c as select c.*, g.players np from read_parquet('{ds}/choices/**/*.parquet', hive_partitioning=true) c join read_parquet('{ds}/games/**/*.parquet', hive_partitioning=true) g using (game_id)")
con.sql(f"create view g as select * from read_parquet('{ds}/games/**/*.parquet', hive_partitioning=true)")
# kind of each row: what was offered (first match by priority)
con.sql("""create view k as select *, unnest(list_distinct(list_transform(options, o -> split_part(o,' ',1)))) kind from c""")
print(con.sql("select players, count(*) games, sum(decisions) decisions from g group by 1 order by 1"))
print(con.sql("""select np, kind, count(*) offered, round(count(*)/any_value(ng),1) per_game,
  count(*) filter (where chosen is null) not_shown,
  round(100.0*count(*) filter (where split_part(chosen,' ',1)=kind)/count(*) filter (where chosen is not null),1) taken_pct
  from k join (select players np, count(*) ng from g group by 1) using (np) group by 1,2 order by 1,3 desc"""))
# spread across players with 50+ opportunities (answer known)
print(con.sql("""with p as (select np, kind, player, count(*) n, avg(case when split_part(chosen,' ',1)=kind then 1.0 else 0 end) r
  from k where chosen is not null group by all having count(*) >= 50)
  select np, kind, count(*) players, round(100*quantile_cont(r,0.1),1) p10, round(100*median(r),1) med, round(100*quantile_cont(r,0.9),1) p90
  from p group by 1,2 order by 1,2"""))
