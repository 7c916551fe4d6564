#!/bin/sh
# A tetrad-bot engine in plain sh (docs/bots.md, "Engines in any language"): for every
# "position ..." line, answer the first of the legal moves listed after "legal <count>".
while read -r line; do
    set -- $line
    while [ "$#" -gt 0 ] && [ "$1" != legal ]; do shift; done
    echo "$3"
done
