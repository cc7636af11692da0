package dev.ferrite.conformance;

import java.util.ArrayList;
import java.util.List;

/** A minimal check runner: each check prints PASS or FAIL; the exit code counts failures. */
final class Checks {
    interface Check {
        void run() throws Exception;
    }

    private final List<String> failures = new ArrayList<>();
    private int passed;

    void check(String name, Check check) {
        long started = System.nanoTime();
        try {
            check.run();
            passed++;
            System.out.printf("PASS %s (%d ms)%n", name, (System.nanoTime() - started) / 1_000_000);
        } catch (Throwable failure) {
            failures.add(name);
            System.out.printf("FAIL %s: %s%n", name, failure);
            failure.printStackTrace(System.out);
        }
        System.out.flush();
    }

    static void require(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    static void equal(Object expected, Object actual, String what) {
        if (expected == null ? actual != null : !expected.equals(actual)) {
            throw new AssertionError(what + ": expected <" + expected + "> but was <" + actual + ">");
        }
    }

    int finish() {
        System.out.printf("%d passed, %d failed%s%n", passed, failures.size(),
                failures.isEmpty() ? "" : " " + failures);
        return failures.size();
    }
}
