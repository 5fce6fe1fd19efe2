"""Run every benchmark and print its figures beside their baselines."""

from bench import three_of_a_crime

if __name__ == "__main__":
    three_of_a_crime.main()
