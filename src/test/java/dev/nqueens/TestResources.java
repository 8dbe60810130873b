package dev.nqueens;

/**
 * What test classes share when surefire or failsafe runs two of them at once (see the pom): the
 * names of JUnit resource locks.
 *
 * <ul>
 * <li>{@link #BROKER}: the test broker. The class that stops and starts its node holds it
 * exclusively; the classes that use the broker hold it shared.</li>
 * <li>{@link #TEST_JVM}: the test JVM's own global state (Spring Boot's logging system, system
 * properties) that an application run in the test's JVM (a Spring test context, or a command line
 * through {@link InProcess}) sets up: one such class at a time. Classes whose work runs in separate
 * processes run beside it.</li>
 * </ul>
 */
public final class TestResources {

    public static final String BROKER = "nqueens.test-broker";
    public static final String TEST_JVM = "nqueens.test-jvm";

    private TestResources() {}
}
