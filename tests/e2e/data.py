"""Data the browser journeys type in, as an organiser would."""

PAIRS_CSV = """player_1;player_2;club;seed
Mette Hansen;Jens Nielsen;Partnersklubben Odense;1
Anne Larsen;Søren Poulsen;Aarhus Partners;2
Kirsten Pedersen;Lars Andersen;København Brætspil;3
Hanne Jensen;Peter Christensen;Aalborg Partnersforening;4
Lene Sørensen;Michael Rasmussen;Esbjerg Spilleklub;5
Susanne Jørgensen;Henrik Petersen;Partnersklubben Odense;6
Pia Madsen;Thomas Kristensen;Vejle Brætspilsforening;7
Bente Olsen;Niels Thomsen;Aarhus Partners;8
"""
