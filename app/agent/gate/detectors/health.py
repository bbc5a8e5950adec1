"""Health: clinicians, conditions, tests and medicines by name, and "Dr." before a name."""

from __future__ import annotations

import re

from app.agent.gate.detectors.base import HEALTH, Hit, key

_HEALTH_TERMS = (
    # clinicians, places, appointments
    r"doctors?|physicians?|clinicians?|nurses?|dentists?|dentistry|dental|orthodontists?|dermatolog(?:ist|y)|"
    r"gyn(?:a)?ecolog(?:ist|y|ical)|obstetrician|ob[\s/\-]?gyn|cardiolog(?:ist|y)|"
    r"oncolog(?:ist|y)|neurolog(?:ist|y)|urolog(?:ist|y)|p(?:a)?ediatrician|radiolog(?:ist|y)|"
    r"psychiatr(?:ist|y|ic)|psychologists?|psychotherap(?:ist|y)|therap(?:ist|y|ies|eutic)|"
    r"physiotherap(?:ist|y)|physio|chiropractor|ophthalmolog(?:ist|y)|midwife|midwives|"
    r"surgeons?|surger(?:y|ies)|surgical|an(?:a)?esthe(?:sia|siologist|tist)|clinic(?:al)?|"
    r"hospitals?|hospitali[sz](?:ed|ation)|urgent\s+care|emergency\s+room|pharmac(?:y|ies|ist)|"
    r"medical|medications?|medicines?|prescri(?:be|bed|bes|bing|ption|ptions)|dos(?:e|age)|"
    r"vaccin(?:e|es|ation|ated)|immuni[sz]ation|flu\s+shot|check[\s\-]?up\s+with|"
    r"blood\s+(?:tests?|work|sugar|pressure)|bloodwork|"
    r"lab(?:oratory)?\s+(?:results?|tests?|work|report)|test\s+results|biops(?:y|ies)|mri|"
    r"ct\s+scan|pet\s+scan|x[\s\-]?rays?|ultrasound|mammogram|colonoscopy|pap\s+smear|"
    r"smear\s+test|ecg|ekg|icu|physical\s+exam|health\s+insurance|medicare|medicaid|"
    r"sick\s+(?:leave|note|day)|doctor'?s\s+note|"
    # conditions
    r"diagnos(?:is|es|ed|e|ing|tic)|illness(?:es)?|diseases?|disorders?|syndromes?|symptoms?|"
    r"cancer|tumou?rs?|leuka?emia|lymphoma|melanoma|carcinoma|chemo(?:therapy)?|"
    r"radiotherapy|radiation\s+therapy|immunotherapy|dialysis|diabet(?:es|ic)|hiv|hepatitis|"
    r"tuberculosis|pregnan(?:t|cy|cies)|miscarriages?|abortions?|ivf|(?:in)?fertility|"
    r"contracepti(?:on|ve|ves)|birth\s+control|morning[\s\-]after\s+pill|herpes|hpv|chlamydia|"
    r"gonorr?h(?:o)?ea|syphilis|depression|depressive|anxiety|panic\s+attacks?|bipolar|"
    r"schizophreni(?:a|c)|psychosis|adhd|autism|autistic|ptsd|ocd|anorexi(?:a|c)|bulimi(?:a|c)|"
    r"eating\s+disorder|dementia|alzheimer'?s?|parkinson'?s?|epilep(?:sy|tic)|seizures?|"
    r"heart\s+(?:attack|disease|failure|condition)|hypertension|cholesterol|asthma|copd|"
    r"arthritis|multiple\s+sclerosis|lupus|crohn'?s|c(?:o)?eliac|migraines?|covid(?:[\s\-]?19)?|"
    r"coronavirus|pneumonia|influenza|flu|concussion|suicid(?:e|al)|self[\s\-]?harm|overdose|"
    r"addiction|alcoholism|substance\s+abuse|allerg(?:y|ies|ic)|obesity|sleep\s+apn(?:o)?ea|"
    r"insomnia|infections?|mental\s+health|rehab(?:ilitation)?|"
    # medications
    r"insulin|metformin|ozempic|wegovy|mounjaro|semaglutide|tirzepatide|antidepressants?|"
    r"antipsychotics?|antibiotics?|antiretrovirals?|sertraline|zoloft|fluoxetine|prozac|"
    r"(?:es)?citalopram|lexapro|bupropion|wellbutrin|venlafaxine|effexor|xanax|alprazolam|"
    r"valium|diazepam|lorazepam|ativan|adderall|ritalin|methylphenidate|lithium|quetiapine|"
    r"seroquel|olanzapine|risperidone|aripiprazole|abilify|clozapine|lamotrigine|gabapentin|"
    r"pregabalin|oxycodone|hydrocodone|fentanyl|morphine|codeine|tramadol|methadone|"
    r"buprenorphine|suboxone|naloxone|narcan|opioids?|amoxicillin|penicillin|doxycycline|"
    r"azithromycin|statins?|atorvastatin|simvastatin|lisinopril|amlodipine|losartan|"
    r"metoprolol|warfarin|levothyroxine|prednisone|omeprazole|truvada|viagra|sildenafil|"
    r"cialis|epipen|inhaler|albuterol|ventolin|\d+\s?(?:mg|mcg)"
)
_HEALTH = re.compile(
    r"(?<![A-Za-z0-9])(?:(?i:" + _HEALTH_TERMS + r")(?i:s|es|'s|’s)?"
    r"|AIDS|STDs?|STIs?|GP|PrEP|HRT|A&E|AA\s+meetings?)(?![A-Za-z0-9])"
)
# "Dr" is also "Drive": count it only as a title in front of a name ("with Dr. Patel").
_DOCTOR_TITLE = re.compile(
    r"(?:(?<![A-Za-z])(?i:with|see|saw|seeing|visit|visiting|call|at)\s+|^)"
    r"(?i:dr)\.?\s+[A-Z][a-z]+"
)


def health_hits(text: str) -> list[Hit]:
    hits = []
    for match in _HEALTH.finditer(text):
        term = " ".join(match.group().split())
        hits.append(Hit(HEALTH, key(HEALTH, term.lower()), term[:40]))
    for match in _DOCTOR_TITLE.finditer(text):
        hits.append(Hit(HEALTH, key(HEALTH, match.group().lower()), "doctor (Dr. …)"))
    return hits
