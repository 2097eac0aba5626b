"""Danish formats on top of Django's (django/conf/locale/da/formats.py).

Only what Django leaves to choice: a day and its month is written with the
abbreviated month, as Danish print has it ("26. nov.", "3. marts").
"""

MONTH_DAY_FORMAT = "j. N"
