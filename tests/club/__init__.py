"""Tests of the club (ohhell.club): results, XP, statistics, ratings, the Collection."""
