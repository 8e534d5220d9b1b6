fn main() {
    std::process::exit(llmc::main_with_args(std::env::args_os()));
}
