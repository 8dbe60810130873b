package dev.nqueens.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class InvocationTests {

    @Test
    void parsesRunWithSizesAndThreads() {
        Invocation run = Invocation.parse("run", "--sizes", "4,8,10-12", "--threads", "2");
        assertThat(run.command()).isEqualTo(Invocation.RUN);
        assertThat(run.springArguments()).containsExactly("--nqueens.sizes=4,8,10-12", "--nqueens.threads=2");
        assertThat(Invocation.parse("run").springArguments()).isEmpty();
    }

    @Test
    void parsesShow() {
        Invocation show = Invocation.parse("show", "8", "--boards", "--fundamental", "--limit", "3");
        assertThat(show.size()).isEqualTo(8);
        assertThat(show.boards()).isTrue();
        assertThat(show.fundamentalOnly()).isTrue();
        assertThat(show.limit()).isEqualTo(3);
        assertThat(Invocation.parse("show", "8").limit()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void parsesServeWithItsPortAsBootsSetting() {
        Invocation serve = Invocation.parse("serve", "--port", "9000");
        assertThat(serve.command()).isEqualTo(Invocation.SERVE);
        assertThat(serve.springArguments()).containsExactly("--server.port=9000");
        assertThat(Invocation.parse("serve").springArguments()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "frobnicate              | Unmatched argument at index 0: 'frobnicate'",
        "run --foo               | Unknown option: '--foo'",
        "run --sizes 0           | invalid size list '0': 0 is out of range",
        "run --sizes abc         | invalid size list 'abc'",
        "run --sizes 12-4        | invalid size list '12-4': range 12-4 is descending",
        "run --threads 0         | invalid value '0' for --threads",
        "show 0                  | invalid size list '0'",
        "show 8-9                | show takes one board size",
        "show 8 --limit -1       | invalid value '-1' for --limit",
        "show                    | Missing required parameter: 'N'",
        "run --window 5x         | invalid value '5x' for --window: a duration such as 5h, 90m or 30s",
        "run --window 0s         | invalid value '0s' for --window: the window must be longer than zero",
        "run --window -5m        | invalid value '-5m' for --window: the window must be longer than zero",
        "run --sizes 29          | invalid size list '29': the count of n=29 would overflow a 64-bit integer",
        "worker --threads 0      | invalid value '0' for --threads",
        "worker --foo            | Unknown option: '--foo'",
        "cluster extra           | Unmatched argument at index 1: 'extra'",
        "serve --port 0          | invalid value '0' for --port: a TCP port 1..65535",
        "serve --port http       | invalid value 'http' for --port: a TCP port 1..65535"})
    void rejectsBadInputInOneLine(String args, String message) {
        assertThatThrownBy(() -> Invocation.parse(args.split(" "))).isInstanceOf(UsageException.class)
                .hasMessageStartingWith(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void parsesTheWindowAndTheClusterCommands() {
        assertThat(Invocation.parse("run", "--window", "5h").springArguments())
                .containsExactly("--nqueens.schedule.window=PT5H");
        assertThat(Invocation.parse("worker", "--threads", "3").springArguments())
                .containsExactly("--nqueens.cluster.enabled=true", "--nqueens.threads=3");
        assertThat(Invocation.parse("cluster").springArguments()).containsExactly("--nqueens.cluster.enabled=true");
    }

    @Test
    void noCommandIsAnError() {
        assertThatThrownBy(Invocation::parse).isInstanceOf(UsageException.class).hasMessageStartingWith("no command");
    }
}
