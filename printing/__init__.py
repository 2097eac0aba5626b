"""Printing: score sheets, notice-board lists, standings, records and reports as PDF.

``printing.documents`` holds pure builders (plain data in, PDF bytes out);
``printing.data`` gathers that data from other apps' selectors;
``printing.services`` runs batch jobs (``PrintJob``) that ``printing.tasks``
executes on a Celery worker.
"""
