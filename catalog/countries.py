"""The officially assigned ISO 3166-1 alpha-2 country codes: a customer's country decides the
tax line, so a well-formed code that names no country (XX, ZZ, AA, QQ) is refused, not taxed at
0; the catalog's own countries (regions, the provider, the tax tables) are held to the same list."""

from __future__ import annotations

# Source: ISO 3166-1 alpha-2, officially assigned codes as of ISO/TC 46 N1108 (2023-04-05), as
# listed by the tz database's iso3166.tab (public domain; /usr/share/zoneinfo/iso3166.tab).
# 249 codes; user-assigned (AA, QM-QZ, XA-XZ, ZZ), reserved (EU, UK) and withdrawn codes excluded.
ASSIGNED = """
    AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR
    BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ
    EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW
    GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY
    KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV
    MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY
    QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG
    TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM
    ZW
"""
ISO_3166_ALPHA2: frozenset[str] = frozenset(ASSIGNED.split())


def assigned_pattern(codes: frozenset[str]) -> str:
    """The codes as one regular expression, by first letter (A[DEFG...]|B[AB...]|...), so that
    the spec states the rule exactly and clients and fuzzers read it as a plain string."""
    firsts = sorted({code[0] for code in codes})
    return "|".join(f"{first}[{''.join(sorted(c[1] for c in codes if c[0] == first))}]"
                    for first in firsts)


ISO_3166_ALPHA2_PATTERN = assigned_pattern(ISO_3166_ALPHA2)
