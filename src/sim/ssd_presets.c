/*
 * ssd_presets.c — the seeds' SSDs as settings of the "ssd" model, each
 * calibrated so that measuring the simulation the seeds' way (0.5 KiB random
 * IOs at QD1 for the penalty, 512 MiB random transfers for the STR) gives
 * back the seeds' figures, or the maker's spec sheet. tests/unit/test_sim_ssd.c
 * and tests/e2e/presets.sh (every figure in tests/e2e/data/preset-reference.tsv)
 * hold each to them.
 *
 * How the numbers follow from the figures (block FTL, 4 KiB pages):
 *   read STR R = channels * page / read_us; read penalty = cmd_us + read_us
 *   + 0.5 KiB on the bus, so cmd_us is most of it (controller time).
 *   write STR W = unit / (unit * program_us / (channels * page) + erase);
 *   write penalty = cmd + one merge = unit/R + erase + unit*program/(ch*page),
 *   which fixes the merge unit (erase block x channels) near the seeds'
 *   C = penalty / (1/W + 1/R) = 11.3 MiB.
 * The JMF602 had no NCQ and no DRAM cache: ncq=1, write_cache=off. Its
 * channels work in lockstep (lockstep=on): time_spread 0.15 draws once per
 * merge unit and per read for all four, so merges spread and keep their mean
 * (docs/presets.md, "Latency spread of each preset").
 *
 * The page-FTL drives: Intel X25-M G2 (10 channels, bus-limited reads,
 * ~100 MiB/s writes, small SRAM write buffer; a pipelined front end: its
 * commands pass the controller in 5 us (reads) and 69 us (writes) but a
 * random one holds it 27 us and 110 us, which gives Intel's 65 / 85 us at
 * QD1 and 35 000 / 8 600 IOPS at QD32, see docs/presets.md) and SuperTalent UltraDrive GX
 * (Indilinx Barefoot, 4 channels, 64 MiB DRAM cache, TRIM). For the GX the
 * 4 KiB random write at QD1 is controller-bound on a clean drive and
 * flash-bound (garbage collection at ~7 % spare) on a used one, which gives
 * the AnandTech shape clean : used : trimmed = 13.1 : 6.93 : 12.9.
 * Capacities are the marketed decimal sizes rounded down to whole merge
 * units (block FTL) or erase blocks (page FTL); spare 0.0687 is a binary
 * raw size behind a decimal user size (1 - 10^9 / 2^30).
 */
#include <stddef.h>

#include "sim/device.h"

const struct sim_preset sim_ssd_presets[] = {
	{ "ocz-core", &sim_ssd_model,
	  "ftl=block,state=used,capacity=62496000k,page_kib=4,erase_block_kib=2880,"
	  "channels=4,read_us=125,program_us=212,erase_ms=1.5,bus_mib_s=270,cmd_us=303,"
	  "ncq=1,spare=0.0687,trim=off,write_cache=off,merge=whole,time_spread=0.15,lockstep=on",
	  "OCZ Core 64 GB (JMF602, MLC): block FTL, 11.25 MiB merge unit, 246 ms writes" },
	{ "ridata-s25", &sim_ssd_model,
	  "ftl=block,state=used,capacity=62492672k,page_kib=4,erase_block_kib=2816,"
	  "channels=4,read_us=128.1,program_us=221.1,erase_ms=1.5,bus_mib_s=270,cmd_us=327,"
	  "ncq=1,spare=0.0687,trim=off,write_cache=off,merge=whole,time_spread=0.15,lockstep=on",
	  "RiDATA NSSD-S25-64 (JMF602, MLC): block FTL, 11 MiB merge unit, 247.5 ms writes" },
	{ "intel-x25m-g2", &sim_ssd_model,
	  "ftl=page,state=fresh,capacity=152587.5m,page_kib=4,erase_block_kib=512,"
	  "channels=10,read_us=42,program_us=390,erase_ms=2,bus_mib_s=250,cmd_us=5,"
	  "write_cmd_us=69,cmd_busy_us=27,write_busy_us=110,"
	  "ncq=32,spare=0.0687,trim=on,write_cache=on,cache_kib=256,time_spread=0.3,"
	  "stall_rate=0.00001,stall_ms=200",
	  "Intel X25-M G2 160 GB (34 nm MLC): page FTL, 10 channels, TRIM" },
	{ "supertalent-gx", &sim_ssd_model,
	  "ftl=page,state=fresh,capacity=61035m,page_kib=4,erase_block_kib=512,"
	  "channels=4,read_us=65,program_us=260,erase_ms=2,bus_mib_s=250,cmd_us=296,"
	  "ncq=32,spare=0.0687,trim=on,write_cache=on,cache_kib=65536,time_spread=0.3",
	  "SuperTalent UltraDrive GX 64 GB (Indilinx): page FTL, 64 MiB cache, TRIM" },
	{ NULL, NULL, NULL, NULL },
};
