print("archive-harness")
