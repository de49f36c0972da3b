// Copyright 2026 The meshflow Authors.
#include <gtest/gtest.h>
