//! aliasing-core's unit tests (written by scripts/unit-tests.py: do not
//! edit). Each test is a `pub fn` in a module of the library compiled
//! under the `unit-tests` feature; see the script's docstring for why.

mod atomic {
    mod tests {
        #[test]
        fn failure_leaves_no_file_behind() {
            aliasing_core::__unit::atomic_tests::failure_leaves_no_file_behind()
        }
    }
}
mod bracket {
    mod tests {
        #[test]
        fn tiny_lengths_at_every_ber() {
            aliasing_core::__unit::bracket_tests::tiny_lengths_at_every_ber()
        }
        #[test]
        fn brackets_contain_the_exact_value() {
            aliasing_core::__unit::bracket_tests::brackets_contain_the_exact_value()
        }
        #[test]
        fn the_codeword_bound_holds_by_brute_force() {
            aliasing_core::__unit::bracket_tests::the_codeword_bound_holds_by_brute_force()
        }
        #[test]
        fn crc64_at_1024_bits_has_the_first_tail_term_as_upper_bound() {
            aliasing_core::__unit::bracket_tests::crc64_at_1024_bits_has_the_first_tail_term_as_upper_bound()
        }
    }
}
mod burst {
    mod tests {
        #[test]
        fn patterns_saturate_for_64_bit_generators() {
            aliasing_core::__unit::burst_tests::patterns_saturate_for_64_bit_generators()
        }
        #[test]
        fn enumeration_matches_division_and_the_theorem() {
            aliasing_core::__unit::burst_tests::enumeration_matches_division_and_the_theorem()
        }
        #[test]
        fn shares_and_profile() {
            aliasing_core::__unit::burst_tests::shares_and_profile()
        }
    }
}
mod catalogue {
    mod data_files {
        #[test]
        fn crate_copies_equal_the_workspace_data() {
            aliasing_core::__unit::catalogue_data_files::crate_copies_equal_the_workspace_data()
        }
    }
    mod tests {
        #[test]
        fn every_catalogue_check_value() {
            aliasing_core::__unit::catalogue_tests::every_catalogue_check_value()
        }
        #[test]
        fn crc_crate_constants_convert_to_their_entries() {
            aliasing_core::__unit::catalogue_tests::crc_crate_constants_convert_to_their_entries()
        }
        #[test]
        fn crc32fast_agrees_on_random_buffers() {
            aliasing_core::__unit::catalogue_tests::crc32fast_agrees_on_random_buffers()
        }
        #[test]
        fn aliases_resolve() {
            aliasing_core::__unit::catalogue_tests::aliases_resolve()
        }
        #[test]
        fn reveng_aliases_name_their_entries() {
            aliasing_core::__unit::catalogue_tests::reveng_aliases_name_their_entries()
        }
        #[test]
        fn everyday_aliases_agree_with_reveng() {
            aliasing_core::__unit::catalogue_tests::everyday_aliases_agree_with_reveng()
        }
        #[test]
        fn unknown_names_suggest() {
            aliasing_core::__unit::catalogue_tests::unknown_names_suggest()
        }
        #[test]
        fn primitive_table_is_proved_and_follows_its_rule() {
            aliasing_core::__unit::catalogue_tests::primitive_table_is_proved_and_follows_its_rule()
        }
    }
}
mod checksum {
    mod tests {
        #[test]
        fn published_vectors() {
            aliasing_core::__unit::checksum_tests::published_vectors()
        }
        #[test]
        fn fast_paths_match_definitions_on_long_inputs() {
            aliasing_core::__unit::checksum_tests::fast_paths_match_definitions_on_long_inputs()
        }
        #[test]
        fn internet_checksum_verifies_with_its_field_in_place() {
            aliasing_core::__unit::checksum_tests::internet_checksum_verifies_with_its_field_in_place()
        }
    }
}
mod compare {
    mod tests {
        #[test]
        fn estimated_seconds_come_from_the_crc_cost_model() {
            aliasing_core::__unit::compare_tests::estimated_seconds_come_from_the_crc_cost_model()
        }
        #[test]
        fn names() {
            aliasing_core::__unit::compare_tests::names()
        }
        #[test]
        fn internet_curve_and_errors() {
            aliasing_core::__unit::compare_tests::internet_curve_and_errors()
        }
        #[test]
        fn captured_frames_verify_under_their_own_check_only() {
            aliasing_core::__unit::compare_tests::captured_frames_verify_under_their_own_check_only()
        }
    }
}
mod crc {
    mod tests {
        #[test]
        fn debug_prints_the_parameters_and_not_the_table() {
            aliasing_core::__unit::crc_tests::debug_prints_the_parameters_and_not_the_table()
        }
        #[test]
        fn a_catalogue_entry_and_the_same_parameters_built_by_hand_are_equal() {
            aliasing_core::__unit::crc_tests::a_catalogue_entry_and_the_same_parameters_built_by_hand_are_equal()
        }
        #[test]
        fn the_builder_masks_init_and_xorout_to_the_width() {
            aliasing_core::__unit::crc_tests::the_builder_masks_init_and_xorout_to_the_width()
        }
        #[test]
        fn every_catalogue_crc_reads_back_from_its_json_with_the_same_table() {
            aliasing_core::__unit::crc_tests::every_catalogue_crc_reads_back_from_its_json_with_the_same_table()
        }
        #[test]
        fn json_parameters_that_disagree_are_refused_with_the_reason() {
            aliasing_core::__unit::crc_tests::json_parameters_that_disagree_are_refused_with_the_reason()
        }
    }
}
mod ctx {
    mod tests {
        #[test]
        fn a_context_keeps_what_it_was_given() {
            aliasing_core::__unit::ctx_tests::a_context_keeps_what_it_was_given()
        }
        #[test]
        fn every_exact_path_honours_the_context_budget() {
            aliasing_core::__unit::ctx_tests::every_exact_path_honours_the_context_budget()
        }
    }
}
mod curve {
    mod tests {
        #[test]
        fn results_are_named_after_the_crc_they_are_computed_on() {
            aliasing_core::__unit::curve_tests::results_are_named_after_the_crc_they_are_computed_on()
        }
        #[test]
        fn validation() {
            aliasing_core::__unit::curve_tests::validation()
        }
        #[test]
        fn every_method_states_its_domain() {
            aliasing_core::__unit::curve_tests::every_method_states_its_domain()
        }
        #[test]
        fn method_names() {
            aliasing_core::__unit::curve_tests::method_names()
        }
        #[test]
        fn auto_and_dual_agree_with_markov() {
            aliasing_core::__unit::curve_tests::auto_and_dual_agree_with_markov()
        }
        #[test]
        fn one_order_whatever_the_method() {
            aliasing_core::__unit::curve_tests::one_order_whatever_the_method()
        }
        #[test]
        fn a_budget_refuses_before_computing() {
            aliasing_core::__unit::curve_tests::a_budget_refuses_before_computing()
        }
        #[test]
        fn too_big_is_refused() {
            aliasing_core::__unit::curve_tests::too_big_is_refused()
        }
    }
}
mod document {
    mod tests {
        #[test]
        fn curve_round_trips_with_and_without_channel() {
            aliasing_core::__unit::document_tests::curve_round_trips_with_and_without_channel()
        }
        #[test]
        fn bracket_round_trips_counts_beyond_u64() {
            aliasing_core::__unit::document_tests::bracket_round_trips_counts_beyond_u64()
        }
        #[test]
        fn compare_round_trips() {
            aliasing_core::__unit::document_tests::compare_round_trips()
        }
        #[test]
        fn hd_round_trips_from_a_real_profile() {
            aliasing_core::__unit::document_tests::hd_round_trips_from_a_real_profile()
        }
        #[test]
        fn weights_round_trip_big_counts() {
            aliasing_core::__unit::document_tests::weights_round_trip_big_counts()
        }
        #[test]
        fn stack_round_trips_missing_checks() {
            aliasing_core::__unit::document_tests::stack_round_trips_missing_checks()
        }
        #[test]
        fn search_round_trips() {
            aliasing_core::__unit::document_tests::search_round_trips()
        }
        #[test]
        fn the_envelope_refuses_other_kinds_and_newer_schemas() {
            aliasing_core::__unit::document_tests::the_envelope_refuses_other_kinds_and_newer_schemas()
        }
        #[test]
        fn a_legacy_curve_with_its_check_under_crc_still_reads() {
            aliasing_core::__unit::document_tests::a_legacy_curve_with_its_check_under_crc_still_reads()
        }
        #[test]
        fn a_joint_point_serializes_every_field_and_its_method_tag() {
            aliasing_core::__unit::document_tests::a_joint_point_serializes_every_field_and_its_method_tag()
        }
        #[test]
        fn a_weight_distribution_lists_its_counts_as_the_weights_document_does() {
            aliasing_core::__unit::document_tests::a_weight_distribution_lists_its_counts_as_the_weights_document_does()
        }
    }
    mod text {
        mod tests {
            #[test]
            fn durations_and_numbers() {
                aliasing_core::__unit::document_text_tests::durations_and_numbers()
            }
        }
    }
    mod transfer {
        mod tests {
            #[test]
            fn sizes_round_trip() {
                aliasing_core::__unit::document_transfer_tests::sizes_round_trip()
            }
        }
    }
}
mod dual {
    mod tests {
        #[test]
        fn lengths_in_one_pass_weigh_as_one_pass_each() {
            aliasing_core::__unit::dual_tests::lengths_in_one_pass_weigh_as_one_pass_each()
        }
        #[test]
        fn lfsr_tables_match_serial_steps() {
            aliasing_core::__unit::dual_tests::lfsr_tables_match_serial_steps()
        }
        #[test]
        fn cycles_cover_all_states() {
            aliasing_core::__unit::dual_tests::cycles_cover_all_states()
        }
        #[test]
        fn dual_weights_match_definition_for_all_small_generators() {
            aliasing_core::__unit::dual_tests::dual_weights_match_definition_for_all_small_generators()
        }
        #[test]
        fn dual_weights_match_definition_for_16_bit_crcs_and_long_cycles() {
            aliasing_core::__unit::dual_tests::dual_weights_match_definition_for_16_bit_crcs_and_long_cycles()
        }
        #[test]
        fn segmented_cycles_agree_with_one_segment() {
            aliasing_core::__unit::dual_tests::segmented_cycles_agree_with_one_segment()
        }
        #[test]
        fn nibble_classes_count_as_stepping_every_position() {
            aliasing_core::__unit::dual_tests::nibble_classes_count_as_stepping_every_position()
        }
        #[test]
        fn pass_items_add_up_to_the_definition_whatever_the_split() {
            aliasing_core::__unit::dual_tests::pass_items_add_up_to_the_definition_whatever_the_split()
        }
        #[test]
        fn pass_items_of_a_long_cycle_match_one_task() {
            aliasing_core::__unit::dual_tests::pass_items_of_a_long_cycle_match_one_task()
        }
        #[test]
        fn rejects_bad_input() {
            aliasing_core::__unit::dual_tests::rejects_bad_input()
        }
        #[test]
        fn curve_matches_exact_codeword_enumeration_over_the_whole_ber_range() {
            aliasing_core::__unit::dual_tests::curve_matches_exact_codeword_enumeration_over_the_whole_ber_range()
        }
        #[test]
        fn curve_matches_markov_state_vector_at_longer_lengths() {
            aliasing_core::__unit::dual_tests::curve_matches_markov_state_vector_at_longer_lengths()
        }
        #[test]
        fn short_lengths_have_no_codewords() {
            aliasing_core::__unit::dual_tests::short_lengths_have_no_codewords()
        }
        #[test]
        fn macwilliams_matches_codeword_enumeration_and_sums_to_2_pow_k() {
            aliasing_core::__unit::dual_tests::macwilliams_matches_codeword_enumeration_and_sums_to_2_pow_k()
        }
        #[test]
        fn macwilliams_matches_syndrome_counts_at_long_lengths() {
            aliasing_core::__unit::dual_tests::macwilliams_matches_syndrome_counts_at_long_lengths()
        }
        #[test]
        fn distinguished_point_walk_finds_the_same_cycles_as_the_bitmap() {
            aliasing_core::__unit::dual_tests::distinguished_point_walk_finds_the_same_cycles_as_the_bitmap()
        }
        #[test]
        fn curve_matches_exact_rationals_at_longer_lengths() {
            aliasing_core::__unit::dual_tests::curve_matches_exact_rationals_at_longer_lengths()
        }
    }
}
mod factor {
    mod tests {
        #[test]
        fn every_polynomial_up_to_degree_13_factors_correctly() {
            aliasing_core::__unit::factor_tests::every_polynomial_up_to_degree_13_factors_correctly()
        }
        #[test]
        fn wide_generators_factor() {
            aliasing_core::__unit::factor_tests::wide_generators_factor()
        }
    }
}
mod fletcher {
    mod fourier4 {
        mod tests {
            #[test]
            fn sender_sums_are_fletcher16s() {
                aliasing_core::__unit::fletcher_fourier4_tests::sender_sums_are_fletcher16s()
            }
            #[test]
            fn agrees_with_every_data_value_and_error_pattern() {
                aliasing_core::__unit::fletcher_fourier4_tests::agrees_with_every_data_value_and_error_pattern()
            }
        }
    }
    mod tests {
        #[test]
        fn data_only_sum_agrees_with_joint_state_dynamic_programming() {
            aliasing_core::__unit::fletcher_tests::data_only_sum_agrees_with_joint_state_dynamic_programming()
        }
        #[test]
        fn three_byte_frames_agree_with_every_error_pattern() {
            aliasing_core::__unit::fletcher_tests::three_byte_frames_agree_with_every_error_pattern()
        }
        #[test]
        fn independent_field_sum_agrees_with_dynamic_programming() {
            aliasing_core::__unit::fletcher_tests::independent_field_sum_agrees_with_dynamic_programming()
        }
        #[test]
        fn coupling_bound_is_honest_on_the_smallest_frame() {
            aliasing_core::__unit::fletcher_tests::coupling_bound_is_honest_on_the_smallest_frame()
        }
        #[test]
        fn edges_and_domain() {
            aliasing_core::__unit::fletcher_tests::edges_and_domain()
        }
        #[test]
        fn whole_frame_sum_agrees_with_the_other_exact_methods() {
            aliasing_core::__unit::fletcher_tests::whole_frame_sum_agrees_with_the_other_exact_methods()
        }
        #[test]
        fn long_frames_have_a_second_order_term() {
            aliasing_core::__unit::fletcher_tests::long_frames_have_a_second_order_term()
        }
    }
}
mod gf2 {
    mod tests {
        #[test]
        fn period_matches_brute_force_for_small_widths() {
            aliasing_core::__unit::gf2_tests::period_matches_brute_force_for_small_widths()
        }
        #[test]
        fn irreducible_matches_trial_division() {
            aliasing_core::__unit::gf2_tests::irreducible_matches_trial_division()
        }
        #[test]
        fn known_polynomials() {
            aliasing_core::__unit::gf2_tests::known_polynomials()
        }
        #[test]
        fn factoring_mersenne_numbers() {
            aliasing_core::__unit::gf2_tests::factoring_mersenne_numbers()
        }
    }
}
mod highprec {
    mod tests {
        #[test]
        fn dyadic_is_exact() {
            aliasing_core::__unit::highprec_tests::dyadic_is_exact()
        }
        #[test]
        fn one_word_step_is_the_fixed_point_product() {
            aliasing_core::__unit::highprec_tests::one_word_step_is_the_fixed_point_product()
        }
        #[test]
        fn remainder_above_low_weights_matches_the_direct_sum() {
            aliasing_core::__unit::highprec_tests::remainder_above_low_weights_matches_the_direct_sum()
        }
        #[test]
        fn fixed_point_conversion() {
            aliasing_core::__unit::highprec_tests::fixed_point_conversion()
        }
    }
}
mod internet {
    mod tests {
        #[test]
        fn small_word_analogue_matches_brute_force() {
            aliasing_core::__unit::internet_tests::small_word_analogue_matches_brute_force()
        }
        #[test]
        fn small_word_payloads_match_brute_force_and_average_to_random() {
            aliasing_core::__unit::internet_tests::small_word_payloads_match_brute_force_and_average_to_random()
        }
        #[test]
        fn every_two_bit_error_against_the_real_checksum() {
            aliasing_core::__unit::internet_tests::every_two_bit_error_against_the_real_checksum()
        }
        #[test]
        fn one_word_needs_all_sixteen_flips() {
            aliasing_core::__unit::internet_tests::one_word_needs_all_sixteen_flips()
        }
        #[test]
        fn leading_term_for_random_data() {
            aliasing_core::__unit::internet_tests::leading_term_for_random_data()
        }
        #[test]
        fn carry_chain_and_characteristic_function_agree() {
            aliasing_core::__unit::internet_tests::carry_chain_and_characteristic_function_agree()
        }
        #[test]
        fn exact_rational_evaluation() {
            aliasing_core::__unit::internet_tests::exact_rational_evaluation()
        }
        #[test]
        fn payload_model_large_ber_uses_characteristic_function() {
            aliasing_core::__unit::internet_tests::payload_model_large_ber_uses_characteristic_function()
        }
        #[test]
        fn bad_input() {
            aliasing_core::__unit::internet_tests::bad_input()
        }
        #[test]
        fn real_field_model_against_brute_force() {
            aliasing_core::__unit::internet_tests::real_field_model_against_brute_force()
        }
        #[test]
        fn mixed_segment_all_random_is_the_random_model() {
            aliasing_core::__unit::internet_tests::mixed_segment_all_random_is_the_random_model()
        }
        #[test]
        fn mixed_segment_fixed_bytes_against_given_payloads() {
            aliasing_core::__unit::internet_tests::mixed_segment_fixed_bytes_against_given_payloads()
        }
        #[test]
        fn half_ber_closed_form() {
            aliasing_core::__unit::internet_tests::half_ber_closed_form()
        }
        #[test]
        fn every_error_pattern_of_a_short_frame_against_the_real_checksum() {
            aliasing_core::__unit::internet_tests::every_error_pattern_of_a_short_frame_against_the_real_checksum()
        }
        #[test]
        fn field_from_the_data_against_brute_force_on_tiny_frames() {
            aliasing_core::__unit::internet_tests::field_from_the_data_against_brute_force_on_tiny_frames()
        }
        #[test]
        fn every_bit_flipped() {
            aliasing_core::__unit::internet_tests::every_bit_flipped()
        }
        #[test]
        fn the_certified_methods_agree_where_they_overlap() {
            aliasing_core::__unit::internet_tests::the_certified_methods_agree_where_they_overlap()
        }
        #[test]
        fn refusals_name_the_reason() {
            aliasing_core::__unit::internet_tests::refusals_name_the_reason()
        }
        #[test]
        fn real_field_model_agrees_with_the_real_model_at_ethernet_length() {
            aliasing_core::__unit::internet_tests::real_field_model_agrees_with_the_real_model_at_ethernet_length()
        }
        #[test]
        fn directions_count_the_bits_of_big_endian_words() {
            aliasing_core::__unit::internet_tests::directions_count_the_bits_of_big_endian_words()
        }
        #[test]
        fn random_data_at_ber_0_and_underflow() {
            aliasing_core::__unit::internet_tests::random_data_at_ber_0_and_underflow()
        }
    }
}
mod job {
    mod cost {
        mod tests {
            #[test]
            fn long_runs_say_so_and_beyond_a_day_need_leave() {
                aliasing_core::__unit::job_cost_tests::long_runs_say_so_and_beyond_a_day_need_leave()
            }
        }
    }
}
mod joint {
    mod plan {
        mod serde_tests {
            #[test]
            fn counts_above_64_bits_round_trip_through_json() {
                aliasing_core::__unit::joint_plan_serde_tests::counts_above_64_bits_round_trip_through_json()
            }
        }
        mod tests {
            #[test]
            fn real_frames_from_64_to_9018_bytes() {
                aliasing_core::__unit::joint_plan_tests::real_frames_from_64_to_9018_bytes()
            }
            #[test]
            fn draws_completed_by_zech_logarithms_tally_as_the_probes() {
                aliasing_core::__unit::joint_plan_tests::draws_completed_by_zech_logarithms_tally_as_the_probes()
            }
            #[test]
            fn at_594_bytes_no_weight_4_codeword_escapes() {
                aliasing_core::__unit::joint_plan_tests::at_594_bytes_no_weight_4_codeword_escapes()
            }
        }
    }
    mod sampling_tests {
        #[test]
        fn sampled_term_agrees_with_the_enumeration() {
            aliasing_core::__unit::joint_sampling_tests::sampled_term_agrees_with_the_enumeration()
        }
    }
    mod tests {
        #[test]
        fn field_count_counts_the_field_values() {
            aliasing_core::__unit::joint_tests::field_count_counts_the_field_values()
        }
        #[test]
        fn tiny_layout_matches_brute_force_on_every_low_weight_codeword() {
            aliasing_core::__unit::joint_tests::tiny_layout_matches_brute_force_on_every_low_weight_codeword()
        }
        #[test]
        fn pass_counts_are_those_of_every_check_for_every_coin_assignment() {
            aliasing_core::__unit::joint_tests::pass_counts_are_those_of_every_check_for_every_coin_assignment()
        }
        #[test]
        fn shape_sums_match_placement_by_placement() {
            aliasing_core::__unit::joint_tests::shape_sums_match_placement_by_placement()
        }
        #[test]
        fn role_classes_sum_as_placement_by_placement() {
            aliasing_core::__unit::joint_tests::role_classes_sum_as_placement_by_placement()
        }
        #[test]
        fn coin_tables_give_the_reference_pass_counts() {
            aliasing_core::__unit::joint_tests::coin_tables_give_the_reference_pass_counts()
        }
        #[test]
        fn closed_form_shape_sums_match_placement_by_placement() {
            aliasing_core::__unit::joint_tests::closed_form_shape_sums_match_placement_by_placement()
        }
        #[test]
        fn pass_probability_any_matches_every_sign() {
            aliasing_core::__unit::joint_tests::pass_probability_any_matches_every_sign()
        }
        #[test]
        fn real_ethernet_tcp_frames_pass_at_the_computed_rates() {
            aliasing_core::__unit::joint_tests::real_ethernet_tcp_frames_pass_at_the_computed_rates()
        }
        #[test]
        fn real_frames_of_user_stacks_pass_at_the_computed_rates() {
            aliasing_core::__unit::joint_tests::real_frames_of_user_stacks_pass_at_the_computed_rates()
        }
        #[test]
        fn user_stacks_match_brute_force_over_every_pattern_and_payload() {
            aliasing_core::__unit::joint_tests::user_stacks_match_brute_force_over_every_pattern_and_payload()
        }
        #[test]
        #[ignore]
        fn user_stacks_match_brute_force_to_weight_4() {
            aliasing_core::__unit::joint_tests::user_stacks_match_brute_force_to_weight_4()
        }
        #[test]
        fn a_fixed_payload_stack_matches_brute_force_exactly() {
            aliasing_core::__unit::joint_tests::a_fixed_payload_stack_matches_brute_force_exactly()
        }
        #[test]
        fn bracket_holds_the_brute_force_value_on_a_tiny_layout() {
            aliasing_core::__unit::joint_tests::bracket_holds_the_brute_force_value_on_a_tiny_layout()
        }
        #[test]
        fn reports_every_work_item() {
            aliasing_core::__unit::joint_tests::reports_every_work_item()
        }
        #[test]
        fn refusals_are_typed() {
            aliasing_core::__unit::joint_tests::refusals_are_typed()
        }
    }
    mod uniform {
        mod tests {
            #[test]
            fn two_words_against_brute_force() {
                aliasing_core::__unit::joint_uniform_tests::two_words_against_brute_force()
            }
            #[test]
            fn sampled_uniform_words_pass_as_computed() {
                aliasing_core::__unit::joint_uniform_tests::sampled_uniform_words_pass_as_computed()
            }
            #[test]
            fn ethernet_tcp_is_nearly_independent() {
                aliasing_core::__unit::joint_uniform_tests::ethernet_tcp_is_nearly_independent()
            }
        }
    }
}
mod layout {
    mod tests {
        #[test]
        fn internet_sum_matches_core() {
            aliasing_core::__unit::layout_tests::internet_sum_matches_core()
        }
        #[test]
        fn filled_frames_verify_and_match_reference_implementations() {
            aliasing_core::__unit::layout_tests::filled_frames_verify_and_match_reference_implementations()
        }
        #[test]
        fn built_in_stacks_are_their_descriptions_byte_for_byte() {
            aliasing_core::__unit::layout_tests::built_in_stacks_are_their_descriptions_byte_for_byte()
        }
        #[test]
        fn wire_order_and_field_follow_the_crc() {
            aliasing_core::__unit::layout_tests::wire_order_and_field_follow_the_crc()
        }
        #[test]
        fn bad_descriptions_name_the_bad_part() {
            aliasing_core::__unit::layout_tests::bad_descriptions_name_the_bad_part()
        }
        #[test]
        fn bad_layouts_are_refused() {
            aliasing_core::__unit::layout_tests::bad_layouts_are_refused()
        }
    }
}
mod lowweight {
    mod tests {
        #[test]
        fn hd_at_matches_brute_force() {
            aliasing_core::__unit::lowweight_tests::hd_at_matches_brute_force()
        }
        #[test]
        fn presence_filter_has_no_false_negatives_and_few_false_positives() {
            aliasing_core::__unit::lowweight_tests::presence_filter_has_no_false_negatives_and_few_false_positives()
        }
        #[test]
        fn shapes_match_counts_and_brute_force() {
            aliasing_core::__unit::lowweight_tests::shapes_match_counts_and_brute_force()
        }
        #[test]
        fn weight4_shapes_by_zech_logarithms_are_the_probes_shapes() {
            aliasing_core::__unit::lowweight_tests::weight4_shapes_by_zech_logarithms_are_the_probes_shapes()
        }
        #[test]
        fn weight5_slices_cover_the_pairs_once() {
            aliasing_core::__unit::lowweight_tests::weight5_slices_cover_the_pairs_once()
        }
        #[test]
        fn counts_match_brute_force() {
            aliasing_core::__unit::lowweight_tests::counts_match_brute_force()
        }
        #[test]
        fn counts_beyond_the_period_match_brute_force() {
            aliasing_core::__unit::lowweight_tests::counts_beyond_the_period_match_brute_force()
        }
        #[test]
        fn profiles_match_brute_force_for_8_bit_generators() {
            aliasing_core::__unit::lowweight_tests::profiles_match_brute_force_for_8_bit_generators()
        }
        #[test]
        fn a_length_bound_cuts_the_profile_exactly() {
            aliasing_core::__unit::lowweight_tests::a_length_bound_cuts_the_profile_exactly()
        }
        #[test]
        fn min_span_search_matches_enumeration() {
            aliasing_core::__unit::lowweight_tests::min_span_search_matches_enumeration()
        }
        #[test]
        fn profiles_match_koopmans_published_tables() {
            aliasing_core::__unit::lowweight_tests::profiles_match_koopmans_published_tables()
        }
        #[test]
        fn every_hdlen_gold_profile() {
            aliasing_core::__unit::lowweight_tests::every_hdlen_gold_profile()
        }
        #[test]
        fn budgeted_profiles_are_prefixes_of_the_full_ones() {
            aliasing_core::__unit::lowweight_tests::budgeted_profiles_are_prefixes_of_the_full_ones()
        }
        #[test]
        fn published_32bit_thresholds() {
            aliasing_core::__unit::lowweight_tests::published_32bit_thresholds()
        }
        #[test]
        fn crc32_hd5_example_is_koopmans() {
            aliasing_core::__unit::lowweight_tests::crc32_hd5_example_is_koopmans()
        }
        #[test]
        fn crc32_weight4_boundary() {
            aliasing_core::__unit::lowweight_tests::crc32_weight4_boundary()
        }
        #[test]
        fn reciprocal_polynomials_have_the_same_profile() {
            aliasing_core::__unit::lowweight_tests::reciprocal_polynomials_have_the_same_profile()
        }
        #[test]
        fn radix_sort_orders_like_a_comparison_sort() {
            aliasing_core::__unit::lowweight_tests::radix_sort_orders_like_a_comparison_sort()
        }
        #[test]
        fn limits_refuse_with_their_typed_reasons() {
            aliasing_core::__unit::lowweight_tests::limits_refuse_with_their_typed_reasons()
        }
    }
    mod trinomial {
        mod tests {
            #[test]
            fn matches_brute_force_for_every_square_free_generator_up_to_width_10() {
                aliasing_core::__unit::lowweight_trinomial_tests::matches_brute_force_for_every_square_free_generator_up_to_width_10()
            }
            #[test]
            fn period_limited_products_match_brute_force() {
                aliasing_core::__unit::lowweight_trinomial_tests::period_limited_products_match_brute_force()
            }
            #[test]
            fn crt_combines_coprime_and_common_moduli() {
                aliasing_core::__unit::lowweight_trinomial_tests::crt_combines_coprime_and_common_moduli()
            }
            #[test]
            fn published_period_limited_rows() {
                aliasing_core::__unit::lowweight_trinomial_tests::published_period_limited_rows()
            }
            #[test]
            fn a2572962_has_no_weight_3_codeword() {
                aliasing_core::__unit::lowweight_trinomial_tests::a2572962_has_no_weight_3_codeword()
            }
        }
    }
    mod zech {
        mod tests {
            #[test]
            fn logs_invert_powers_and_refuse_non_primitive_generators() {
                aliasing_core::__unit::lowweight_zech_tests::logs_invert_powers_and_refuse_non_primitive_generators()
            }
            #[test]
            fn pairs_are_those_of_a_brute_force_search() {
                aliasing_core::__unit::lowweight_zech_tests::pairs_are_those_of_a_brute_force_search()
            }
        }
    }
}
mod markov {
    mod butterfly {
        mod tests {
            #[test]
            fn scalar_path_gives_the_avx2_bits() {
                aliasing_core::__unit::markov_butterfly_tests::scalar_path_gives_the_avx2_bits()
            }
            #[test]
            fn chunked_step_matches_register_rule() {
                aliasing_core::__unit::markov_butterfly_tests::chunked_step_matches_register_rule()
            }
        }
    }
    mod cpu {
        mod tests {
            #[test]
            fn scalar_grants_no_token() {
                aliasing_core::__unit::markov_cpu_tests::scalar_grants_no_token()
            }
            #[test]
            fn tokens_follow_the_features() {
                aliasing_core::__unit::markov_cpu_tests::tokens_follow_the_features()
            }
        }
    }
    mod gilbert {
        mod tests {
            #[test]
            fn brute_force_every_pattern() {
                aliasing_core::__unit::markov_gilbert_tests::brute_force_every_pattern()
            }
            #[test]
            fn bit_order_does_not_matter() {
                aliasing_core::__unit::markov_gilbert_tests::bit_order_does_not_matter()
            }
            #[test]
            fn equal_state_bers_reduce_to_the_binary_symmetric_channel() {
                aliasing_core::__unit::markov_gilbert_tests::equal_state_bers_reduce_to_the_binary_symmetric_channel()
            }
            #[test]
            fn sparse_product_chain_agrees() {
                aliasing_core::__unit::markov_gilbert_tests::sparse_product_chain_agrees()
            }
            #[test]
            fn results_in_the_order_given_and_checks() {
                aliasing_core::__unit::markov_gilbert_tests::results_in_the_order_given_and_checks()
            }
            #[test]
            fn fused_kernel_matches_stepwise() {
                aliasing_core::__unit::markov_gilbert_tests::fused_kernel_matches_stepwise()
            }
            #[test]
            fn fused_scalar_path_gives_the_vector_paths_bits() {
                aliasing_core::__unit::markov_gilbert_tests::fused_scalar_path_gives_the_vector_paths_bits()
            }
            #[test]
            fn translation_walk_matches_every_pattern_and_the_crc_chain() {
                aliasing_core::__unit::markov_gilbert_tests::translation_walk_matches_every_pattern_and_the_crc_chain()
            }
        }
    }
    mod inplace {
        mod tests {
            #[test]
            fn reports_every_step() {
                aliasing_core::__unit::markov_inplace_tests::reports_every_step()
            }
            #[test]
            fn same_bits_as_the_out_of_place_kernel() {
                aliasing_core::__unit::markov_inplace_tests::same_bits_as_the_out_of_place_kernel()
            }
        }
    }
    mod sparse {
        mod tests {
            #[test]
            fn crc_chain_follows_the_register() {
                aliasing_core::__unit::markov_sparse_tests::crc_chain_follows_the_register()
            }
            #[test]
            fn rejects_bad_chains() {
                aliasing_core::__unit::markov_sparse_tests::rejects_bad_chains()
            }
            #[test]
            fn two_state_parity_chain() {
                aliasing_core::__unit::markov_sparse_tests::two_state_parity_chain()
            }
            #[test]
            fn gilbert_elliott_product_chain_against_brute_force() {
                aliasing_core::__unit::markov_sparse_tests::gilbert_elliott_product_chain_against_brute_force()
            }
        }
    }
    mod tests {
        #[test]
        fn brute_force_small_widths_every_path() {
            aliasing_core::__unit::markov_tests::brute_force_small_widths_every_path()
        }
        #[test]
        fn brute_force_twenty_bits() {
            aliasing_core::__unit::markov_tests::brute_force_twenty_bits()
        }
        #[test]
        fn half_ber_identity() {
            aliasing_core::__unit::markov_tests::half_ber_identity()
        }
        #[test]
        fn width16_against_exact_dual_code() {
            aliasing_core::__unit::markov_tests::width16_against_exact_dual_code()
        }
        #[test]
        fn tiny_probabilities_match_leading_terms() {
            aliasing_core::__unit::markov_tests::tiny_probabilities_match_leading_terms()
        }
        #[test]
        fn sparse_and_butterfly_agree_at_width_16_long_lengths() {
            aliasing_core::__unit::markov_tests::sparse_and_butterfly_agree_at_width_16_long_lengths()
        }
        #[test]
        fn parallel_and_serial_are_identical() {
            aliasing_core::__unit::markov_tests::parallel_and_serial_are_identical()
        }
        #[test]
        fn memory_refusal() {
            aliasing_core::__unit::markov_tests::memory_refusal()
        }
        #[test]
        fn curve_points_are_consistent() {
            aliasing_core::__unit::markov_tests::curve_points_are_consistent()
        }
        #[test]
        fn solver_bits_do_not_depend_on_the_thread_count() {
            aliasing_core::__unit::markov_tests::solver_bits_do_not_depend_on_the_thread_count()
        }
    }
    mod walk {
        mod tests {
            #[test]
            fn unwind_inverts_the_register_step() {
                aliasing_core::__unit::markov_walk_tests::unwind_inverts_the_register_step()
            }
            #[test]
            fn agrees_with_the_butterfly_kernel() {
                aliasing_core::__unit::markov_walk_tests::agrees_with_the_butterfly_kernel()
            }
            #[test]
            fn same_bits_on_every_path() {
                aliasing_core::__unit::markov_walk_tests::same_bits_on_every_path()
            }
            #[test]
            fn scalar_path_gives_the_vector_paths_bits() {
                aliasing_core::__unit::markov_walk_tests::scalar_path_gives_the_vector_paths_bits()
            }
            #[test]
            fn any_translations_against_brute_force() {
                aliasing_core::__unit::markov_walk_tests::any_translations_against_brute_force()
            }
            #[test]
            fn blocks_meeting_the_lane_bits_run_step_by_step() {
                aliasing_core::__unit::markov_walk_tests::blocks_meeting_the_lane_bits_run_step_by_step()
            }
        }
    }
}
mod parse {
    mod items {
        mod tests {
            #[test]
            fn hop_lists() {
                aliasing_core::__unit::parse_items_tests::hop_lists()
            }
        }
    }
    mod tests {
        #[test]
        fn sizes_exactly() {
            aliasing_core::__unit::parse_tests::sizes_exactly()
        }
        #[test]
        fn one_number_syntax_and_limits() {
            aliasing_core::__unit::parse_tests::one_number_syntax_and_limits()
        }
        #[test]
        fn counts_are_exact() {
            aliasing_core::__unit::parse_tests::counts_are_exact()
        }
        #[test]
        fn forms() {
            aliasing_core::__unit::parse_tests::forms()
        }
        #[test]
        fn log_form_is_limited_like_ranges() {
            aliasing_core::__unit::parse_tests::log_form_is_limited_like_ranges()
        }
    }
}
mod poly {
    mod tests {
        #[test]
        fn serde_round_trip() {
            aliasing_core::__unit::poly_tests::serde_round_trip()
        }
        #[test]
        fn crc32_notations_agree() {
            aliasing_core::__unit::poly_tests::crc32_notations_agree()
        }
        #[test]
        fn every_notation_round_trips() {
            aliasing_core::__unit::poly_tests::every_notation_round_trips()
        }
        #[test]
        fn width_64_full_form() {
            aliasing_core::__unit::poly_tests::width_64_full_form()
        }
        #[test]
        fn bad_input_is_rejected() {
            aliasing_core::__unit::poly_tests::bad_input_is_rejected()
        }
        #[test]
        fn x_plus_1() {
            aliasing_core::__unit::poly_tests::x_plus_1()
        }
    }
}
mod progress {
    mod tests {
        #[test]
        fn references_forward_every_call() {
            aliasing_core::__unit::progress_tests::references_forward_every_call()
        }
        #[test]
        fn a_batch_reports_in_blocks_and_the_rest_on_drop() {
            aliasing_core::__unit::progress_tests::a_batch_reports_in_blocks_and_the_rest_on_drop()
        }
        #[test]
        fn a_record_sees_incomplete_stages() {
            aliasing_core::__unit::progress_tests::a_record_sees_incomplete_stages()
        }
    }
}
mod registry {
    mod tests {
        #[test]
        fn markov_from_width_plus_one_bits_at_every_ber() {
            aliasing_core::__unit::registry_tests::markov_from_width_plus_one_bits_at_every_ber()
        }
        #[test]
        fn dual_up_to_width_32_and_ber_one_half() {
            aliasing_core::__unit::registry_tests::dual_up_to_width_32_and_ber_one_half()
        }
        #[test]
        fn bracket_takes_widths_33_to_64() {
            aliasing_core::__unit::registry_tests::bracket_takes_widths_33_to_64()
        }
        #[test]
        fn gilbert_chain_up_to_width_24_on_a_burst_channel() {
            aliasing_core::__unit::registry_tests::gilbert_chain_up_to_width_24_on_a_burst_channel()
        }
        #[test]
        fn internet_random_and_given_data_at_their_length_edges() {
            aliasing_core::__unit::registry_tests::internet_random_and_given_data_at_their_length_edges()
        }
        #[test]
        fn fletcher16_from_3_bytes_random_data_only() {
            aliasing_core::__unit::registry_tests::fletcher16_from_3_bytes_random_data_only()
        }
        #[test]
        fn placed_crc_up_to_24_bits_and_its_work_limit() {
            aliasing_core::__unit::registry_tests::placed_crc_up_to_24_bits_and_its_work_limit()
        }
        #[test]
        fn placed_internet_and_its_layout_refusals() {
            aliasing_core::__unit::registry_tests::placed_internet_and_its_layout_refusals()
        }
        #[test]
        fn joint_terms_take_crcs_the_dual_code_takes() {
            aliasing_core::__unit::registry_tests::joint_terms_take_crcs_the_dual_code_takes()
        }
        #[test]
        fn auto_picks_as_before() {
            aliasing_core::__unit::registry_tests::auto_picks_as_before()
        }
        #[test]
        fn refusals_are_one_line_and_name_no_option() {
            aliasing_core::__unit::registry_tests::refusals_are_one_line_and_name_no_option()
        }
        #[test]
        fn the_domain_table_lists_every_entry() {
            aliasing_core::__unit::registry_tests::the_domain_table_lists_every_entry()
        }
        #[test]
        fn the_guide_quotes_the_domain_table() {
            aliasing_core::__unit::registry_tests::the_guide_quotes_the_domain_table()
        }
    }
}
mod search {
    mod distance {
        mod tests {
            #[test]
            fn matches_brute_force_for_every_small_generator() {
                aliasing_core::__unit::search_distance_tests::matches_brute_force_for_every_small_generator()
            }
            #[test]
            fn matches_brute_force_for_wider_generators_and_the_hash_set() {
                aliasing_core::__unit::search_distance_tests::matches_brute_force_for_wider_generators_and_the_hash_set()
            }
            #[test]
            fn agrees_with_the_hd_profile() {
                aliasing_core::__unit::search_distance_tests::agrees_with_the_hd_profile()
            }
            #[test]
            fn refuses_short_lengths() {
                aliasing_core::__unit::search_distance_tests::refuses_short_lengths()
            }
        }
    }
    mod tests {
        #[test]
        fn dual_p_ud_matches_the_markov_chain() {
            aliasing_core::__unit::search_tests::dual_p_ud_matches_the_markov_chain()
        }
        #[test]
        fn reciprocal_pairs_tie_exactly_and_are_named() {
            aliasing_core::__unit::search_tests::reciprocal_pairs_tie_exactly_and_are_named()
        }
        #[test]
        fn shards_merge_to_the_whole_run() {
            aliasing_core::__unit::search_tests::shards_merge_to_the_whole_run()
        }
        #[test]
        fn top_results_are_the_best_of_a_full_evaluation() {
            aliasing_core::__unit::search_tests::top_results_are_the_best_of_a_full_evaluation()
        }
        #[test]
        fn sample_is_reproducible_and_distinct() {
            aliasing_core::__unit::search_tests::sample_is_reproducible_and_distinct()
        }
        #[test]
        fn refuses_bad_queries() {
            aliasing_core::__unit::search_tests::refuses_bad_queries()
        }
        #[test]
        fn koopman_best_rows_widths_8_to_12() {
            aliasing_core::__unit::search_tests::koopman_best_rows_widths_8_to_12()
        }
        #[test]
        fn koopman_best_rows_widths_13_to_16() {
            aliasing_core::__unit::search_tests::koopman_best_rows_widths_13_to_16()
        }
        #[test]
        fn the_query_alone_states_the_width() {
            aliasing_core::__unit::search_tests::the_query_alone_states_the_width()
        }
        #[test]
        fn estimated_seconds_sample_the_space() {
            aliasing_core::__unit::search_tests::estimated_seconds_sample_the_space()
        }
    }
}
mod series {
    mod tests {
        #[test]
        fn series_tails_match_direct_evaluation_away_from_zero_and_are_exact_near_it() {
            aliasing_core::__unit::series_tests::series_tails_match_direct_evaluation_away_from_zero_and_are_exact_near_it()
        }
    }
}
mod shard {
    mod tests {
        #[test]
        fn both_deals_cover_every_item_once() {
            aliasing_core::__unit::shard_tests::both_deals_cover_every_item_once()
        }
        #[test]
        fn validation_and_serialized_form() {
            aliasing_core::__unit::shard_tests::validation_and_serialized_form()
        }
    }
}
mod units {
    mod serde_round_trip {
        #[test]
        fn units_and_results_round_trip_through_json() {
            aliasing_core::__unit::units_serde_round_trip::units_and_results_round_trip_through_json()
        }
    }
    mod tests {
        #[test]
        fn a_ber_reads_back_as_written_at_the_edges_and_a_bad_one_is_refused() {
            aliasing_core::__unit::units_tests::a_ber_reads_back_as_written_at_the_edges_and_a_bad_one_is_refused()
        }
        #[test]
        fn lengths_read_only_non_negative_integers() {
            aliasing_core::__unit::units_tests::lengths_read_only_non_negative_integers()
        }
    }
}
mod weights {
    mod published {
        #[test]
        fn crc32_weight5_count_at_2096_data_bits() {
            aliasing_core::__unit::weights_published::crc32_weight5_count_at_2096_data_bits()
        }
    }
    mod tests {
        #[test]
        fn estimated_seconds_grow_with_the_syndrome_work_and_skip_the_dual_pass() {
            aliasing_core::__unit::weights_tests::estimated_seconds_grow_with_the_syndrome_work_and_skip_the_dual_pass()
        }
        #[test]
        fn krawtchouk_recurrence_matches_definition() {
            aliasing_core::__unit::weights_tests::krawtchouk_recurrence_matches_definition()
        }
        #[test]
        fn rejects_inconsistent_distribution() {
            aliasing_core::__unit::weights_tests::rejects_inconsistent_distribution()
        }
        #[test]
        fn binomials() {
            aliasing_core::__unit::weights_tests::binomials()
        }
    }
}
