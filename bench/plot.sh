#!/bin/sh
# plot.sh CSV... - PNG plots for CSV files the bench scripts wrote on a
# machine without gnuplot (the GPU machine): sweep-*.csv (median GPU time
# over pass count, per mode and size) and breakdown-*.csv (GPU ms per
# item). Each PNG is written next to its CSV. Needs gnuplot (Debian:
# gnuplot-nox).
set -eu
command -v gnuplot >/dev/null 2>&1 || { echo "plot.sh: gnuplot missing (Debian: apt-get install gnuplot-nox)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for csv in "$@"; do
    png=${csv%.csv}.png
    title=$(sed -n '1s/^# //p' "$csv" | cut -c1-110)
    case $(basename "$csv") in
    sweep-slopes-*) continue ;;
    sweep-*)
        plots=""
        for key in $(awk -F, 'NR > 1 && $1 !~ /^#/ && $1 != "mode" {print $1 "@" $2 "x" $3}' "$csv" | sort -u); do
            m=${key%@*}; s=${key#*@}
            awk -F, -v m="$m" -v s="$s" '$1 == m && $2 "x" $3 == s {print $4, $6}' "$csv" >"$tmp/$key.dat"
            plots="$plots${plots:+, }'$tmp/$key.dat' using 1:2 with linespoints title '$m $s'"
        done
        gnuplot <<GP
set terminal pngcairo size 900,600 noenhanced
set output '$png'
set title 'pass sweep: median GPU ms per frame\n$title' font ',9'
set xlabel 'passes'
set ylabel 'ms'
set key left top
set grid
plot $plots
GP
        ;;
    breakdown-*)
        awk -F, 'NR > 2 && $2 != "" {n++; printf "%d \"%s\" %s\n", n, substr($1, 1, 40), $2}' "$csv" >"$tmp/bars.dat"
        gnuplot <<GP
set terminal pngcairo size 1100,700 noenhanced
set output '$png'
set title 'frame breakdown, GPU ms\n$title' font ',9'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -40 font ',8'
set grid ytics
set ylabel 'ms'
plot '$tmp/bars.dat' using 1:3:xtic(2) with boxes notitle
GP
        ;;
    *) echo "plot.sh: no plot for $csv" >&2; continue ;;
    esac
    echo "plot.sh: $png"
done
