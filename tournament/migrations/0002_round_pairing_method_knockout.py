from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="pairing_method",
            field=models.CharField(blank=True, max_length=20),
        ),
        migrations.AddField(
            model_name="round",
            name="bracket_matches",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="bye",
            name="bracket_slot",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ]
