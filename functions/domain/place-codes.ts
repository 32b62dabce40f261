/**
 * The codes the API accepts for a user's province and country: the codes of data/provinces.json and
 * data/countries.json (a unit test keeps them equal), without the names, which only the web shows.
 */
export const PROVINCE_CODES: ReadonlySet<string> = new Set(
  (
    'AG AL AN AO AP AQ AR AT AV BA BG BI BL BN BO BR BS BT BZ CA CB CE CH CL CN CO CR CS CT CZ EN FC FE ' +
    'FG FI FM FR GE GO GR IM IS KR LC LE LI LO LT LU MB MC ME MI MN MO MS MT NA NO NU OR PA PC PD PE PG ' +
    'PI PN PO PR PT PU PV PZ RA RC RE RG RI RM RN RO SA SI SO SP SR SS SU SV TA TE TN TO TP TR TS TV UD ' +
    'VA VB VC VE VI VR VS VT VV '
  )
    .trim()
    .split(' '),
);

export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    'AF AL DZ AD AO AI AQ AG SA AR AM AW AU AT AZ BS BH BD BB BE BZ BJ DY BM BT BY BO BA BW BR BN BG BF ' +
    'HV BI KH CM CA CV BQ CZ TD CL CN CY VA CO KM CD ZR CG KP KR CI CR HR CU AN CW DK DM EC EG SV AE ER ' +
    'EE SZ ET FJ PH FI FR FX GA GM GE GS DD DE GH JM JP GI DJ JO GR GD GL GP GU GT GG GN GQ GW GY GF HT ' +
    'HN IN ID IR IQ IE IS BV CX IM NF AX KY CC CK FO FK HM MP MH UM PN SB TC VI VG IL IT JE KZ KE KG KI ' +
    'XK KW LA LS LV LB LR LY LI LT LU MK MG MW MY MV ML MT MA MQ MR MU YT MX FM MD MC MN ME MS MZ BU MM ' +
    'NA NR NP NI NE NG NU NO NC NZ OM NL PK PW PA PG PY PE PF PL PT PR QA HK MO GB UK CF DO RE RO RW RU ' +
    'SU EH KN LC MF VC BL PM WS AS SM SH ST SN CS RS YU SC SL SG SX SY SK SI SO ES LK US SS ZA SD SR SJ ' +
    'SE CH TJ TW TZ TF PS IO TH TL TP TG TK TO TT TN TR TM TV UA UG HU UY UZ NH VU VE VD VN WF YD YE ZM ' +
    'RH ZW '
  )
    .trim()
    .split(' '),
);
