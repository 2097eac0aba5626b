"""English formats for a Danish event's English readers.

Django's "en" formats are American (month first: "11/26/2026", "Nov. 26,
2026"); an English page of a Danish championship writes the day first, as
British English does, with the 24-hour clock of the hall.
"""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y H:i"
MONTH_DAY_FORMAT = "j N"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
FIRST_DAY_OF_WEEK = 1
