#!/usr/bin/env bash
# install-deps.sh — installs the Debian packages iomodel needs to build, test
# and benchmark, and only those that are missing. Safe to run again.
set -eu

packages=(
	gcc meson ninja-build pkg-config         # build
	liburing-dev libaio-dev libblkid-dev     # IO backends, device signatures
	libmount-dev                             # mount and swap tables (what is in use)
	libjansson-dev                           # JSON results
	libinih-dev                              # INI files of simulated drives
	libgsl-dev                               # model fitting (least squares, Student t)
	libisal-dev                              # crc32c of --verify (ISA-L)
	libplplot-dev plplot-driver-cairo        # report charts: SVG, and PNG through cairo
	fonts-dejavu-core                        # report charts' text (PNG) and the page in chromium
	python3 e2fsprogs util-linux             # tests: JSON checks, mkfs, losetup
	chromium                                 # tests: the report rendered by a browser
	fio                                      # bench/: the peer iomodel is compared with
	blktrace                                 # tests: blkparse's own text for replay
	libopenmpi-dev openmpi-bin               # optional: mpirun -n N iomodel run (build: mpi on)
	clang libclang-rt-14-dev                 # fuzz/: libFuzzer harnesses (tests/e2e/fuzz.sh)
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
as_root=()
[ "$(id -u)" = 0 ] || as_root=(sudo)
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null
